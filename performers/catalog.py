"""The catalog: one table per role, catalog name (kebab-case) → ``"module:Class"``.

Nothing is imported here; the arena imports a performer's module only when a spec
names it.  Add a performer by adding one line to its role's table.
"""

from __future__ import annotations

from arena.sdk import Catalog

JOHNS: dict[str, str] = {
    "parallel-text": "performers.john.parallel_text:ParallelTextJohn",
    "distil-lingeval": "performers.john.distil_lingeval:DistilLingEvalJohn",
    "lingeval97": "performers.john.lingeval97:LingEval97John",
    "newstest": "performers.john.newstest:NewstestJohn",
    "mt-reference": "performers.john.mt_reference:MTReferenceJohn",
    "select": "performers.john.select:SelectJohn",
    "template": "performers.john.template:TemplateJohn",
    "adaptive": "performers.john.adaptive:AdaptiveJohn",
    "pairs": "performers.john.pairs:PairsJohn",
}

ZELLIGS: dict[str, str] = {
    "replay": "performers.zellig.replay:ReplayZellig",
    "placeholder-ding": "performers.zellig.placeholder_ding:PlaceholderDingZellig",
    "polarity-affix-del": "performers.zellig.polarity_affix_del:PolarityAffixDelZellig",
    "polarity-affix-ins": "performers.zellig.polarity_affix_ins:PolarityAffixInsZellig",
    "clause-omission": "performers.zellig.clause_omission:ClauseOmissionZellig",
    "polarity-particle-nicht-del": "performers.zellig.polarity_particle_nicht_del:PolarityParticleNichtDelZellig",
    "polarity-particle-nicht-ins": "performers.zellig.polarity_particle_nicht_ins:PolarityParticleNichtInsZellig",
    "compound": "performers.zellig.compound:CompoundZellig",
    "transliteration": "performers.zellig.transliteration:TransliterationZellig",
    "feature-flip": "performers.zellig.feature_flip:FeatureFlipZellig",
    "hypercorrect-genitive": "performers.zellig.hypercorrect_genitive:HypercorrectGenitiveZellig",
    "np-agreement": "performers.zellig.np_agreement:NpAgreementZellig",
    "subj-verb-agreement": "performers.zellig.subj_verb_agreement:SubjVerbAgreementZellig",
    "subj-adequacy": "performers.zellig.subj_adequacy:SubjAdequacyZellig",
    "auxiliary": "performers.zellig.auxiliary:AuxiliaryZellig",
    "verb-particle": "performers.zellig.verb_particle:VerbParticleZellig",
    "polarity-particle-kein-del": "performers.zellig.polarity_particle_kein_del:PolarityParticleKeinDelZellig",
    "polarity-particle-kein-ins": "performers.zellig.polarity_particle_kein_ins:PolarityParticleKeinInsZellig",
    "adaptive": "performers.zellig.adaptive:AdaptiveZellig",
    "model-guided": "performers.zellig.model_guided:ModelGuidedZellig",
    "search": "performers.zellig.search:SearchZellig",
    "mt-system": "performers.zellig.mt_system:MTSystemZellig",
}

CLAUDES: dict[str, str] = {
    "random": "performers.claude.random:RandomClaude",
    "oracle": "performers.claude.oracle:OracleClaude",
    "hf-seq2seq": "performers.claude.hf_seq2seq:HFSeq2SeqClaude",
    "ctranslate2": "performers.claude.ct2:CTranslate2Claude",
    "fairseq": "performers.claude.fairseq:FairseqClaude",
    "toy-en-de": "performers.claude.toy_en_de:ToyEnDeClaude",
    "toy-en-de-ct2": "performers.claude.toy_en_de_ct2:ToyEnDeCT2Claude",
    "causal-lm": "performers.claude.causal_lm:CausalLMClaude",
    "ensemble": "performers.claude.ensemble:EnsembleClaude",
    "learned": "performers.claude.learned:LearnedClaude",
    "edit-aware": "performers.claude.edit_aware:EditAwareClaude",
    "target-lm": "performers.claude.target_lm:TargetLMClaude",
    "length": "performers.claude.length:LengthClaude",
    "edit-words": "performers.claude.edit_words:EditWordsClaude",
}

# groups of Zelligs for commands that take several (`arena corrupt --zellig all`): "all" is every rule
# Zellig that corrupts a plain German reference and needs no params (not replay, not feature-flip)
ZELLIG_GROUPS: dict[str, tuple[str, ...]] = {
    "all": (
        "placeholder-ding", "polarity-affix-del", "polarity-affix-ins", "clause-omission",
        "polarity-particle-nicht-del", "polarity-particle-nicht-ins", "compound", "transliteration",
        "hypercorrect-genitive", "np-agreement", "subj-verb-agreement", "subj-adequacy", "auxiliary",
        "verb-particle", "polarity-particle-kein-del", "polarity-particle-kein-ins",
    ),
}

# the surface-cue Claudes that `arena cues` and every report's "Surface cues" section run (issue 25),
# and the Claudes a cue is not compared with (chance, the answer key, the cues themselves)
SURFACE_CUES: tuple[str, ...] = ("length", "edit-words", "target-lm")
NOT_COMPARED_WITH_CUES: tuple[str, ...] = ("random", "oracle", *SURFACE_CUES)

CATALOG = Catalog(johns=JOHNS, zelligs=ZELLIGS, claudes=CLAUDES, zellig_groups=ZELLIG_GROUPS)
