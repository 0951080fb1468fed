"""Claude performers."""
