"""M2C-style morphological templates (Hlavnova & Ruder 2023, "Empowering
Cross-lingual Behavioral Testing of NLP Models with Typological Features"; reference
implementation google-research/multi-morph-checklist), compatible with M2C's syntax
and generation semantics.

- :mod:`~performers.m2c.syntax`: the template language (placeholders, numbered
  draws, agreement, inline choices, conditional features, rules, computed
  placeholders, modifiers);
- :mod:`~performers.m2c.features`, :mod:`~performers.m2c.tables`: dimensions,
  feature bundles, lexicons and rule tables;
- :mod:`~performers.m2c.language`, :mod:`~performers.m2c.specfile`: languages and
  templates as data (JSON/YAML in M2C's layout);
- :mod:`~performers.m2c.registry`: Python functions a spec may name (computed
  placeholders and dimensions, modifiers, post-processing);
- :mod:`~performers.m2c.space`: a template's draws, their count, exhaustive and
  seeded generation, rendering, feature flips;
- :mod:`~performers.m2c.pairs`: English source / German reference template pairs;
- :mod:`~performers.m2c.answers`: answer validation for M2C's ``C: … Q: … A: …`` tests.

Nothing heavy is imported here.
"""
