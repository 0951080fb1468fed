"""John performers."""
