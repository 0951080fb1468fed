"""np-agreement: the article's gender changes, its case and number stay."""

from __future__ import annotations

import pytest

from performers.zellig.np_agreement import PHENOMENON, NpAgreementZellig
from tests.performers.zellig.german_checks import corrupt, texts


@pytest.fixture(scope="module")
def zellig():
    return NpAgreementZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        (
            "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.",
            {
                "Der Prager Börse stürzt gegen Geschäftsschluss ins Minus.",
                "Das Prager Börse stürzt gegen Geschäftsschluss ins Minus.",
            },
        ),
        ("Er half der Frau.", {"Er half dem Frau.", "Er half des Frau."}),
        ("Das Ergebnis des Spiels war klar.", {"Das Ergebnis der Spiels war klar."}),
        ("Er traf den Abgeordneten.", {"Er traf das Abgeordneten."}),
        ("Die Anmietung ist teuer.", {"Der Anmietung ist teuer."}),
        (
            "Sie lehnte die von Deutschland angebotene Hilfe ab.",
            {"Sie lehnte das von Deutschland angebotene Hilfe ab."},
        ),
    ],
)
def test_changes(zellig, reference, expected):
    assert expected <= set(texts(zellig, reference))


@pytest.mark.parametrize(
    "reference, forbidden",
    [
        ("Er traf den Abgeordneten.", "Er traf die Abgeordneten."),  # a grammatical plural
        ("Der Abgeordnete kam.", "Die Abgeordnete kam."),  # a nominalised adjective takes any gender
    ],
)
def test_grammatical_results_are_not_made(zellig, reference, forbidden):
    assert forbidden not in texts(zellig, reference)


@pytest.mark.parametrize(
    "reference",
    [
        "Die Leute kommen morgen.",  # plural
        "Das Teil ist kaputt.",  # der/das Teil
        "Er sieht einen Hund.",  # not a definite article
        "Gut gemacht!",
        "",
    ],
)
def test_does_not_fire(zellig, reference):
    assert corrupt(zellig, reference) == []


def test_metadata(zellig):
    variant = next(
        v
        for v in corrupt(zellig, "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.")
        if v.text.startswith("Der ")
    )
    assert variant.phenomenon == PHENOMENON
    assert variant.meta["distance"] == 2 and variant.meta["head"] == "Börse"
    assert variant.meta["zipf_frequency"] > 0
    assert [(e.before, e.after) for e in variant.edits] == [("Die", "Der")]


@pytest.mark.parametrize(
    "text, expected",
    [
        # must fire: the article agrees with its noun on no reading
        ("Die Reaktion der Marktes auf die Ergebnisse.", True),
        ("Die Stabilität des Abstimmung ist gefährdet.", True),
        ("Er half dem Frau.", True),
        ("Das Leute kommen morgen.", True),
        # must fire: misses of the earlier detector on DistilLingEval's np_agreement.mt (dev lines, shortened)
        ("Er muss auch auf der Markt wirksam sein.", True),  # auf governs ACC/DAT; der Markt is nominative
        ("Mit der Zusammenbruch der Bank ist die Kreditvergabe versiegt.", True),
        ("Der Auswahl ist groß.", True),  # the prefield: der Auswahl is only a genitive or dative
        ("Ein Vertrag über den Anmietung der Infrastruktur.", True),  # unknown noun, gender from -ung
        ("Er sprach mit die Verwaltungsrat.", True),  # an unknown compound, a short head after a linking s
        ("Bewegung gibt es bei den Kompaktwagen.", False),  # not Kompaktwa|gen
        # must fire: the weak adjective ending fixes the article's reading (der … -e: masculine nominative)
        ("Der ägyptische Regierung hatte die Reform beschlossen.", True),
        ("Die neue Präsident kam gestern an.", True),  # die … -e: feminine singular
        # must fire: the only possible subject of the clause is only a dative or genitive
        ("Der Börse in Taiwan fiel um 3,6 Prozent.", True),  # the prefield with a prepositional attribute
        ("Tatsächlich wurde der Dividende gestrichen.", True),  # right after the finite verb
        ("Und der Straße ist vielleicht am besten geholfen.", True),  # the prefield after a conjunction
        ("Die Minister gab gestern eine Erklärung ab.", False),  # eine Erklärung may be the subject
        ("Tatsächlich hat die Premierminister zugestimmt.", True),  # the sole subject is plural, the verb singular
        ("Tatsächlich haben die Minister zugestimmt.", False),
        ("Die Botschafter ist beunruhigt.", True),  # a copula without a predicate noun
        ("Das Ergebnis sind wachsende Armut und Unterschiede.", False),  # the predicate noun may set the number
        ("Tatsächlich hat die Regierung und der Präsident zugestimmt.", False),  # coordinated subjects
        ("Die Mehrheit der Schüler sind arm.", False),  # a quantity noun
        ("Die Kinder spielt im Garten.", False),  # Kinder is only plural: the verb is wrong, not the article
        ("Das Handy tragen die meisten bei sich.", False),
        ("Manche Kurven muss man auf ganz spezifische Art und Weise durchfahren.", False),  # die meisten: a pronoun, the subject
        ("Zehn hatten sich der Stimme enthalten.", False),
        # must fire: an article after a comma that cannot be a relative pronoun
        ("Sie verließ die Stadt, in dem Hoffnung, Arbeit zu finden.", True),  # dem: no masculine or neuter noun before
        ("Er nannte die Möglichkeit, den tägliche Erschöpfung zu bekämpfen.", True),
        ("Er sagte, das Distrikt müsse bessere Wege finden.", True),  # the verb second: a main clause
        ("Sie verließ das Haus, in dem Geld lag.", False),  # a relative pronoun for das Haus
        ("Er hat das Bild hinterlassen, in dem Hoffnung, Glück zu bringen.", True),  # no finite verb follows
        ("Es ist ein Manöver, bei dem Raumsonden im Schwerefeld, etwa der Erde, Schwung gewinnen.", False),
        ("Die Materie, aus der Sterne, Planeten und Lebewesen bestehen, ist selten.", False),  # a list, then the verb
        ("Er tut alles, um der Eurozone zu helfen.", False),  # um … zu, not the preposition
        ("Wir wissen, das extrovertierte Menschen häufiger lügen.", False),  # dass misspelt, not an agreement error
        ("Die Nachrichten stammen aus der Jahr 2008.", True),  # a year after the noun is no name
        ("Er floh während der Herrschaft der Khmer Rouge.", False),  # a name the tagger split into nouns
        ("Er arbeitet für die Los Angeles Times.", False),
        ("Sie setzten auf dem Gewinnen.", False),  # a nominalised infinitive, neuter
        ("Heute stehen die Tigers auf dem letzten Platz.", False),  # an -s plural name
        ("Er kaufte den Haus mit seiner Schwester.", True),  # Haus is no -s plural
        # must fire: only a genitive, where no noun precedes for it to be an attribute of
        ("Gleichzeitig stellte der Unternehmen fest, dass es wächst.", True),
        # must not fire: false alarms of the development versions on newstest references and correct sides
        ("Es ist das mythische Shem, das der Legende nach den Golem zum Leben erweckt hat.", False),  # postposition
        ("Wäre es nicht wunderbar, wenn wir vom Büro aus die Klimaanlage einschalten?", False),
        ("Das 76 Jahre alte Unternehmen hat spät reagiert.", False),  # a measure inside the noun phrase
        ("Den Kindern stehen Handwerker zur Seite.", False),  # a dative in the prefield
        ("Er sagte nichts dazu, ob das Flugzeug gemäß des Zeitplans fliegt.", False),  # gemäß: also genitive
        ("Während des Prozesses erwirkte er die Entlassung.", False),  # während: a preposition here
        ("Das korrekte Funktionieren moderner Unternehmen ist erforderlich.", False),  # nominalised infinitive
        ("Eine Kaltfront, die kräftige Regenfälle bringt, zieht auf.", False),  # a pronoun, a strong adjective
        ("Die lange befürchteten Ereignisse treten ein.", False),  # lange: an adverb the tagger took for an adjective
        ("Die Deutschen sehen selbstfahrende Autos skeptisch.", False),
        ("Wir gedenken der Opfer.", False),  # a verb with a genitive object
        ("Er wurde des Mordes für schuldig befunden.", False),  # an adjective with a genitive object
        ("Beim Betrachten des Bildes staunt man.", False),  # a nominalised infinitive tagged as a verb
        ("Während des Fluges schläft er.", False),
        ("Kubaner, die sich einloggen wollen, müssen der Regierung ihren Namen nennen.", False),
        ("Er war der Ansicht, dass es reicht.", False),  # a genitive predicate
        ("Der Regierung ist klar, dass es reicht.", False),  # a dass-clause may be the subject
        ("Der Prager Börse fehlt das Geld.", False),  # das Geld may be the subject
        # must not fire: agreement on some reading, or undecidable
        ("Die Reaktion des Marktes auf die Ergebnisse der Abstimmung.", False),
        ("Er half der Frau.", False),
        ("Das Teil ist kaputt.", False),  # der/das Teil
        ("Der Abgeordnete kam.", False),  # nominalised adjectives take their referent's gender
        ("Die Abgeordnete kam.", False),
        ("Die Leute kommen morgen.", False),
        ("Solche, die Langholz transportieren, warten dort.", False),  # a relative pronoun
        ("Der Unfall, bei dem letzte Woche eine Frau starb, war schlimm.", False),
        ("Die Rückgabe der von Hitler auf der Grundlage des Abkommens besetzten Region.", False),
        ("Das tschechische Telekommunikationsamt entschied.", False),  # linking s, not *Samt*
        ("Jack verlässt den Wagen.", False),  # unknown to the lexicon: not *Wa|gen*
        ("Es ist Sache des Stylisten.", False),
        ("Gut gemacht!", False),
        ("", False),
    ],
)
def test_detect(zellig, text, expected):
    assert zellig.detect(text) is expected
    assert zellig.detect(text, source="Any English source.") is expected  # the source is not needed
