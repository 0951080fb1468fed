"""``np-agreement`` Zellig: change the gender of a singular definite article so it no longer agrees
with its head noun.

Source: Sennrich (2017), LingEval97 ``np_agreement`` ("we randomly change the gender of a singular
definite determiner"); DistilLingEval ``np_agreement`` (Vamvas & Sennrich 2021).

    Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.
    → Der Prager Börse stürzt gegen Geschäftsschluss ins Minus.

Where it applies: a definite article (STTS ``ART``: *der, die, das, den, dem, des*) whose noun-phrase head
(:func:`performers.german.syntax.np_head`) has a singular reading that agrees with it.  The readings
(gender, case) come from german-nouns (the compound head for unknown compounds, the derivational suffix
for unknown derivations such as *Anmietung*); a nominalised infinitive (*das Warten*) is neuter.

What it changes: the article only, to the article of each *other* gender in the *same* case and number
(*der Börse* DAT/GEN.FEM → *dem*, *des*; *die Latte* NOM/ACC.FEM → *der*, *das*, *den*): one candidate per
distinct new article.  Without a parser the case is not disambiguated, so every case reading the article
and noun allow contributes (LingEval97 picked one of them at random).

Filters: genders the noun itself has in an agreeing reading are never used; nouns with more than one
standard gender (*der/das Teil*, ``data/noun_gender.yaml``) are left alone; for nominalised adjectives
(*der Abgeordnete*, HanTa ``NNA``), whose gender follows the referent, only changes that also clash with
the adjective ending are made (*den Abgeordneten* ACC.MASC → *das Abgeordneten*, never *die*).  Plural
noun phrases are never changed.

``detect(text, source=None)``: whether ``text`` has a definite article that agrees with its head noun on no
reading, or only in readings its context rules out (:func:`disagreeing_articles`).  The readings come from
:mod:`performers.german.article_agreement`: the noun must be known to german-nouns (or by its compound head,
also inside a hyphenated name: *Rettungspaket*), be a nominalised infinitive (neuter: *das Funktionieren*,
*auf dem Gewinnen*) or carry a suffix that fixes its gender (*Anmietung*); not a nominalised adjective, a
noun with two genders, an abbreviation, or part of a name or measure (a foreign word, an unknown word or a
number other than a year after it, a number or noun before it: *der Delta State University*, *der Khmer
Rouge*, *das 76 Jahre alte …*; *aus der Jahr 2008* fires).  The weak endings of attributive adjectives narrow
the readings (*der ägyptische Regierung*: *der … -e* is only a masculine nominative).  The context
(:mod:`performers.german.np_context`) fixes the case after a preposition (*auf der Markt* fires), where the
noun phrase must be the clause's only subject (the prefield, also with attributes: *Der Börse in Taiwan
fiel*; after a subordinating conjunction; right after the finite verb of a main clause: *Tatsächlich wurde
der Dividende gestrichen*; nominative or accusative) and where a genitive can be no attribute (after a
finite verb, conjunction or pronoun: *Gleichzeitig stellte der Unternehmen fest, dass …*).  A sole subject
whose nominative readings lack the verb's number fires where the noun has it (*Tatsächlich hat die
Premierminister zugestimmt*).  Left alone: an article word after a comma that may be a relative pronoun
(a noun of its number and gender before the comma, the verb not second: *Sie verließ das Haus, in dem Geld
lag*; but *Sie verließ die Stadt, in dem Hoffnung …* fires), *das* misspelt for *dass* before a plural-only
noun, a subject that may be a clause or several coordinated phrases.  ``source`` is not needed.

Metadata: ``distance`` (LingEval97: article and noun positions, *Die Prager Börse* = 2), ``zipf_frequency``
and, with a ``training_corpus``, ``frequency`` of the noun; ``case`` readings and the ``gender`` used.
"""

from __future__ import annotations

from arena.sdk import Edit, Instance, Variant, make_variant
from performers.german import inflection as inf
from performers.german import noun_inflection as noun_inf
from performers.german.analysis import Analysis, Token, analyze
from performers.german.article_agreement import agreeing_readings, weak_endings
from performers.german.frequency import frequency_meta
from performers.german.np_context import after_attributes, context_cases, subject_verb, verb_numbers
from performers.german.relative_pronoun import adjectives_fit, may_have_antecedent, relative_pronoun_position
from performers.german.syntax import distance, np_head
from performers.zellig.german_base import GermanZellig

PHENOMENON = "np_agreement"
DEFINITE = frozenset({"der", "die", "das", "den", "dem", "des"})


def _singular_readings(article: str, head: Token) -> list[tuple[str, str]]:
    """(gender, case) singular readings of the noun ``head`` that agree with the definite ``article``."""
    out: list[tuple[str, str]] = []
    analyses = noun_inf.noun_analyses(head.text) if head.xpos != "NNI" else ()
    if analyses:
        for number, gender, case in analyses:
            if number == "SG" and gender is not None and inf.article(f"SG.DEF.{gender}.{case}") == article:
                if (gender, case) not in out:
                    out.append((gender, case))
        if out or any(number == "PL" and inf.article(f"PL.DEF.{case}") == article for number, _, case in analyses):
            return out
    if head.xpos == "NNI" or (
        head.text.endswith("en") and head.lemma == head.text and article in ("das", "dem", "des")
    ):
        genders: frozenset[str] = frozenset({"NEUT"})  # nominalised infinitive: das Warten
    elif analyses:
        return out
    else:
        genders = noun_inf.noun_genders(head.text)
    for gender in sorted(genders):
        for case in inf.CASES:
            if inf.article(f"SG.DEF.{gender}.{case}") == article and (gender, case) not in out:
                out.append((gender, case))
    return out


def _nominalised_adjective(article: str, head: Token) -> list[tuple[str, str, str]]:
    """For a nominalised adjective: (gender, case, new article) changes that clash with its weak ending."""
    out: list[tuple[str, str, str]] = []
    word = head.text
    for gender in inf.GENDERS:
        for case in inf.CASES:
            if inf.article(f"SG.DEF.{gender}.{case}") != article:
                continue
            ending = inf.adjective_ending(f"WEAK.SG.{gender}.{case}")
            if not word.endswith(ending):
                continue
            for other in inf.GENDERS:
                new = inf.article(f"SG.DEF.{other}.{case}")
                other_ending = inf.adjective_ending(f"WEAK.SG.{other}.{case}")
                plural = inf.article(f"PL.DEF.{case}") == new and word.endswith(inf.adjective_ending(f"WEAK.PL.{case}"))
                if new != article and not word.endswith(other_ending) and not plural:
                    out.append((gender, case, new))
    return out


def alternatives(analysis: Analysis, token: Token) -> tuple[int, list[tuple[str, list[str], str]]] | None:
    """For a definite article ``token``: (head index, [(new article, case readings, new gender)]) or ``None``."""
    article = token.text.lower()
    if token.pos != "ART" or article not in DEFINITE:
        return None
    head_index = np_head(analysis.tokens, token.index)
    if head_index is None:
        return None
    head = analysis.tokens[head_index]
    found: dict[str, tuple[list[str], str]] = {}
    if head.xpos == "NNA":
        for _, case, new in _nominalised_adjective(article, head):
            cases, gender = found.setdefault(new, ([], ""))
            if case not in cases:
                cases.append(case)
    else:
        readings = _singular_readings(article, head)
        if not readings or noun_inf.has_double_gender(head.lemma) or noun_inf.has_double_gender(head.text):
            return None
        own = {gender for gender, _ in readings}
        for _, case in readings:
            for other in inf.GENDERS:
                if other in own:
                    continue
                new = inf.article(f"SG.DEF.{other}.{case}")
                if new == article:
                    continue
                cases, _ = found.setdefault(new, ([], other))
                if case not in cases:
                    cases.append(case)
    if not found:
        return None
    return head_index, [(new, cases, gender) for new, (cases, gender) in found.items()]


def _name_like(tokens: tuple[Token, ...], start: int, head: int) -> bool:
    """A head that is likely part of a name or a measure rather than the article's noun: an abbreviation or a
    one- or two-letter word (*des FC*, *der B 33*), a head followed by a foreign word or a number other than
    a year (*der Delta State University*) or continued by an unknown word (:func:`_name_continues`), or a number before it (*das
    76 Jahre alte …*)."""
    word = tokens[head].text
    if len(word) < 3 or word.isupper() or any(t.pos in ("CARD", "NN") for t in tokens[start + 1 : head]):
        return True  # a noun before the head: a name the head finder took for a place adjective (der Khmer Rouge)
    after = tokens[head + 1] if head + 1 < len(tokens) else None
    if after is None:
        return False
    if after.pos == "CARD":
        return not _year(after.text)  # der Jahr 2008 is an error; der B 33, die Formel 1 are names
    return after.pos in ("FM", "XY") or _name_continues(word, after)


def _year(text: str) -> bool:
    """Whether ``text`` is a year of the 20th or 21st century (*im Jahr 2008*)."""
    return len(text) == 4 and text.isdigit() and text[:2] in ("19", "20")


# words that begin place and company names (*die Los Angeles Times*, *der West LB*, *die Nord Stream*)
NAME_STARTS = frozenset({"Los", "Las", "San", "Santa", "Sankt", "West", "Ost", "Nord", "Süd", "New", "Pol"})


def _name_continues(word: str, after: Token) -> bool:
    """Whether the capitalised word after the head, unknown to german-nouns, continues a name the head
    begins: after a word that begins names (:data:`NAME_STARTS`) or as a noun the tagger could not place
    (*der Khmer Rouge*)."""
    from performers.german.nouns import is_noun_form

    if after.pos not in ("NN", "NE", "FM") or not after.text[:1].isupper() or is_noun_form(after.text):
        return False
    return word in NAME_STARTS or after.pos == "NN"


def disagreeing_articles(analysis: Analysis) -> list[tuple[int, int]]:
    """(article, head noun) token indices of definite articles that agree with their head on no reading, or
    only in cases the context rules out (*auf der Markt*: only a nominative), except a singular genitive
    after a preposition (*seit des Jahres* is a hypercorrect genitive, not an agreement error; *in der
    Parteien* still fires).

    Only plain noun phrases count (article, adjectives, adverbs, numbers, then the noun: no extended
    modifier, whose inner noun phrases the heuristic head finder may take for the head), and no article
    word that may be a relative pronoun."""
    tokens = analysis.tokens
    found = []
    for token in tokens:
        article = token.text.lower()
        if token.pos != "ART" or article not in DEFINITE:
            continue
        relative = relative_pronoun_position(tokens, token.index)
        head_index = np_head(tokens, token.index, extended=False)
        if relative or head_index is None or _name_like(tokens, token.index, head_index):
            continue
        comma = token.index - 1
        if tokens[comma].text == "," and not adjectives_fit(article, tokens, token.index, head_index):
            if may_have_antecedent(tokens, comma, article):
                continue  # …, bei dem letzte Woche …: a relative pronoun before a strong adjective
        if _dass_typo(tokens, token.index, head_index):
            continue
        readings = agreeing_readings(article, tokens[head_index], weak_endings(tokens, token.index, head_index))
        if readings is None:
            continue
        cases = frozenset(case for _, case in readings)
        governed = context_cases(analysis, token.index, head_index)
        # a singular genitive agreeing in full where the preposition wants another case is a hypercorrect
        # genitive (seit des Jahres), the hypercorrect-genitive detector's business, not an agreement error
        hypercorrect = cases == {"GEN"} and article == "des" and tokens[token.index - 1].pos == "APPR"
        if not cases or (governed is not None and not cases & governed and not hypercorrect):
            found.append((token.index, head_index))
        elif governed == {"NOM", "ACC"} and _number_clash(analysis, token.index, head_index, readings):
            found.append((token.index, head_index))
    return found


def _dass_typo(tokens: tuple[Token, ...], index: int, head: int) -> bool:
    """Whether *das* after a comma, before a plural noun, is likely the conjunction *dass* misspelt (*Wir
    wissen, das extrovertierte Menschen häufiger lügen*): a spelling error, not an agreement error."""
    if tokens[index].text.lower() != "das" or index == 0 or tokens[index - 1].text != ",":
        return False
    nominative = {number for number, _, case in noun_inf.noun_analyses(tokens[head].text) if case == "NOM"}
    return nominative == {"PL"}  # das Sprecher (one or many) may still be an agreement error


COORDINATORS = frozenset({"und", "oder", "sowie", "sowohl", "als", "wie", "noch"})


def _number_clash(analysis: Analysis, index: int, head: int, readings: frozenset[tuple[str, str]]) -> bool:
    """Whether the noun phrase must be the subject of a finite verb (:func:`subject_verb`, no other noun
    phrase of either number competing) whose number none of its nominative readings has, though the noun
    has it (*Tatsächlich hat die Premierminister zugestimmt*: *die Premierminister* is only plural, *der
    Premierminister* singular).  Not for a coordinated
    phrase (*der Trend und der Anstieg sind*) or a quantity noun (*Die Mehrheit der Schüler sind*); a
    predicate noun, whose number a copula may follow (*Das Ergebnis sind wachsende Armut*), is a competing
    nominative."""
    from performers.german.subject_number import QUANTITY_NOUNS

    tokens = analysis.tokens
    end = after_attributes(tokens, head)
    after = tokens[end] if end < len(tokens) else None
    before = tokens[index - 1] if index > 0 else None
    if any(t is not None and (t.text.lower() in COORDINATORS or t.text == ",") for t in (before, after)):
        return False  # the noun phrase may be one of several coordinated subjects
    if tokens[head].text in QUANTITY_NOUNS:
        return False
    verb = subject_verb(analysis, index, head, any_number=True)
    if verb is None:
        return False
    nominative = {number for number, case in readings if case == "NOM"}
    numbers = verb_numbers(analysis, verb)
    if not nominative or nominative & numbers:
        return False
    # the article is to blame only where the noun itself has the verb's number (die Premierminister hat:
    # der Premierminister; in *Die Kinder spielt* the verb or the noun is wrong, not the article)
    return any(case == "NOM" and number in numbers for number, _, case in noun_inf.noun_analyses(tokens[head].text))


class NpAgreementZellig(GermanZellig):
    """Break article–noun agreement by changing the article's gender (one candidate per new article)."""

    version = "3"  # 2: the case from the context (issue 25); 3: adjective endings, subject positions, free
    # genitives, relative-pronoun antecedents, names (issue 25, item 5); corrupt() unchanged

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        variants: list[Variant] = []
        for token in analysis.tokens:
            found = alternatives(analysis, token)
            if found is None:
                continue
            head_index, options = found
            head = analysis.tokens[head_index]
            for new, cases, gender in options:
                edit = Edit(token.start, token.end, token.text, inf.match_case(token.text, new))
                meta = {
                    "position": token.index,
                    "head": head.text,
                    "cases": cases,
                    "distance": distance(analysis, token.index, head_index),
                    **frequency_meta(self.counts, head.text),
                }
                if gender:
                    meta["gender"] = gender
                variants.append(make_variant(instance, [edit], PHENOMENON, meta))
        return variants

    def detect(self, text: str, source: str | None = None) -> bool:
        """Whether ``text`` has a definite article that agrees with its head noun on no reading."""
        return bool(disagreeing_articles(analyze(text, self.backend)))
