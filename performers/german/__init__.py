"""German analysis shared by the Zelligs: tokens, POS, lemma, morphology, inflection tables."""
