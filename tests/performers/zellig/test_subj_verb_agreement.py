"""subj-verb-agreement: the finite verb's number changes, person, tense and mood stay."""

from __future__ import annotations

import pytest

from arena.errors import ConfigError
from arena.specs.registry import build
from arena.specs.spec import PerformerSpec
from performers.catalog import CATALOG
from performers.zellig.subj_verb_agreement import SubjVerbAgreementZellig
from tests.performers.zellig.german_checks import corrupt, texts


@pytest.fixture(scope="module")
def zellig():
    return SubjVerbAgreementZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        (
            "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.",
            "Die Prager Börse stürzen gegen Geschäftsschluss ins Minus.",
        ),
        ("Wir stehen am Rande des Abgrunds.", "Wir stehe am Rande des Abgrunds."),
        ("Die Aktienindizes verzeichneten hohe Verluste.", "Die Aktienindizes verzeichnete hohe Verluste."),
        ("Der Präsident hat das Gesetz unterschrieben.", "Der Präsident haben das Gesetz unterschrieben."),
        ("Die Schwergewichte kommen.", "Die Schwergewichte kommt."),  # HanTa tags kommen VVINF here
        ("Er sagte, dass die Kinder schlafen.", "Er sagte, dass die Kinder schläft."),
    ],
)
def test_changes(zellig, reference, expected):
    assert expected in texts(zellig, reference)


def test_person_comes_from_the_subject(zellig):
    assert "Wir steht am Rande des Abgrunds." not in texts(zellig, "Wir stehen am Rande des Abgrunds.")


def test_sie_subjects_are_optional():
    reference = "Sie war müde."
    assert "Sie waren müde." in texts(SubjVerbAgreementZellig(), reference)
    assert corrupt(SubjVerbAgreementZellig(include_sie=False), reference) == []
    with pytest.raises(ConfigError, match="parameter 'include_sie' must be a boolean"):
        build("zellig", PerformerSpec("subj-verb-agreement", {"include_sie": "no"}), CATALOG)


@pytest.mark.parametrize("reference", ["Gut gemacht!", "Ein schöner Tag.", ""])
def test_does_not_fire(zellig, reference):
    assert corrupt(zellig, reference) == []


def test_metadata(zellig):
    (variant,) = corrupt(zellig, "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.")
    assert variant.phenomenon == "subj_verb_agreement"
    assert variant.meta["subject"] == "Börse" and variant.meta["distance"] == 1
    assert (variant.meta["person"], variant.meta["number"], variant.meta["tense"]) == (3, "SG", "PRS")


@pytest.mark.parametrize(
    "text, expected",
    [
        # must fire: the verb has no reading in the subject's person and number
        ("Die Prager Börse stürzen gegen Geschäftsschluss ins Minus.", True),
        ("Das amerikanische Repräsentantenhaus haben den Plan abgelehnt.", True),
        ("Wir steht am Rande des Abgrunds.", True),
        ("Ich gehen nach Hause.", True),
        ("Die Aktionäre verkauft ihre Aktien.", True),
        # must fire: misses of the earlier detector on DistilLingEval's subj_verb_agreement.mt (dev lines, shortened)
        ("Quellen sagen, dass der Senat am Mittwoch über den Plan abstimmen könnten.", True),  # subordinate clause
        ("Auch hier geben es Preis- und Qualitätskategorien.", True),  # es gibt is singular
        ("Wenn nicht, kann Sie den Lautsprecher verwenden.", True),  # polite Sie after the verb
        ("Paula Radcliffe aus Großbritannien halten den Weltrekord.", True),  # a name is singular
        ("Später stellte sich heraus, dass er eine Zyste an seinem Stimmband hatten.", True),  # er: nominative only
        ("Emil Kučera, der zu drei Jahren Gefängnis verurteilt wurden, legte Berufung ein.", True),  # relative clause
        ("Haider, der bereits angekündigt hat, zurückzukehren, setzen auf diese Entwicklung.", True),
        ("Der fünfte Kandidat, Vitali Bganba, behaupten, keine Partei zu unterstützen.", True),  # an apposition
        ("„Wir haben Fortschritte erzielt“, erklärten der Vertreter der Regierung.", True),  # reporting clause
        ("Doch der Präsident lehnten ab.", True),  # doch opens the sentence: no coordination
        ("Ein Gericht in Bangladesch haben ein Kautionsgesuch abgelehnt.", True),  # the prefield with its attribute
        ("Niemand hatten Angst davor.", True),  # an indefinite pronoun
        # coordinated finite verbs share the subject of the main-clause verb before them
        ("Assistenztrainer Cornelius Jol nickte und hoben zustimmend den Daumen.", True),
        ("Andere legen weniger Wert auf Flirttechniken und trägt schlichte Filzhüte.", True),
        ("Sie wollte einen neuen Film bewerben, sprachen in einem Interview über persönliche Angelegenheiten.", True),
        ("Sie können jederzeit entlassen werden, darf jedoch nicht entfernt werden.", True),
        ("Assistenztrainer Cornelius Jol nickte und hob zustimmend den Daumen.", False),
        ("Sie hat im vergangenen Jahr das Abitur bestanden und lebt mit ihrem Freund zusammen.", False),  # participle
        ("Die Regel, nach der geheime Akten nur bekannte Nachrichten enthalten dürfen, ist essenziell.", False),
        ("Die besten Jahre meines Lebens, sagte er, waren in den Orten.", False),  # a parenthesis
        ("Er und Kerr lieben sich immer noch, betonte der 36-Jährige.", False),  # the reporting verb's own subject
        ("Die Kinder haben das Haus gekauft und renoviert.", False),  # a coordinated participle
        # a form like the infinitive is finite with ich/wir beside it or across a conjunction from sein/haben
        ("Ich musste den Weg alleine finden und zum Glück haben ich mich nicht verlaufen.", True),
        ("Der Zeitpunkt ist ungewiss und werden die Märkte beeinflussen.", True),
        ("Das Unternehmen haben seine Prognose angehoben und will Rekordgewinne erzielen.", True),
        ("Ich musste den Weg alleine finden und zum Glück habe ich mich nicht verlaufen.", False),
        ("Das Unternehmen hat seine Prognose angehoben und will Rekordgewinne erzielen.", False),
        ("Er will lachen und weinen.", False),  # a coordinated infinitive
        # must not fire: false alarms of the development versions on newstest references and correct sides
        ("Aber ich frage mich: Sind wir dafür vorbereitet?", False),  # a participle, not a finite verb
        ("Die Verhandlungen hatten sich während der letzten Stunden beschleunigt.", False),
        ("Erstens: Das gelbe Käppchen aufsetzen.", False),  # a fused separable verb: an infinitive
        ("Fußgängerin vom Balkon mit Luftgewehr beschossen", False),  # a headline: a participle
        ("Meine Schwester und ich durften Süßigkeiten essen.", False),  # a coordinated pronoun
        ("Auch wenn es erste Anzeichen gab und wir darüber gesprochen hatten, war sie nicht vorbereitet.", False),
        ("Auch Daverden setzt wie wir auf Tempospiel.", False),  # wie wir: a comparison
        ("Manche Kurven muss man auf spezifische Art durchfahren.", False),  # man is the subject
        ("Bestimmte Arten von Hypersensibilität, die an sich lobenswert sind, verzerren Ergebnisse.", False),
        ("Das ist einer der Punkte, die bedacht werden muss.", False),  # which antecedent?
        ("Dann erzählt sie von ihrem Mann, der in der Armee waren.", True),  # a prepositional antecedent
        ("Die Kopfschmerzen, die vom Glukosemangel herrühren, kann man im Krankenhaus vertreiben.", False),
        ("Seit 2008 haben er und seine Freiwilligen vielen Menschen geholfen.", False),
        ('Alle sagten "Du solltest es mal probieren."', False),  # the pronoun behind a quotation mark
        ("Seit 2008 haben er vielen Menschen geholfen.", True),
        ("Nur 9 % der Kanadier lassen sich darauf ein.", False),  # the percentage is the subject
        ("Nur 9 % der Kanadier lässt sich darauf ein.", False),
        ("Die Gesangsfassung übernahmen Kateřina Kněžínková und Adam Plachetka.", False),  # a coordinated subject
        ("Barack Obama und John McCain, die beiden Kandidaten, haben ihre Unterstützung zugesagt.", False),
        ("Die Gesangsfassung übernahmen die Sängerin.", True),
        # expletive es and demonstratives before a copula: the noun phrase after the verb decides
        ("Es wurden nie ein solcher Vertrag unterzeichnet.", True),
        ("Das sind keine Amnestie für unser Land.", True),
        ("Es wurde nie ein solcher Vertrag unterzeichnet.", False),
        ("Es freut die Eltern.", False),
        ("Das würde auch die Kosten senken.", False),
        # a verb-first main clause after a prefield that ends in a comma: the subject follows the verb
        ("Anfang Juli, als die ÖVP die Koalition verließ, hatten die Volkspartei einen Vorsprung.", True),
        ("Ehrlich gesagt, sind der Markt sehr ruhig.", True),
        ("Im Zusammenhang mit dem Unfall eines Busses bei Padua, Italien, stellen sich die Frage.", True),
        ("Anfang Juli, als die ÖVP die Koalition verließ, hatte die Volkspartei einen Vorsprung.", False),
        ("Über 500 geladene Gäste, darunter vier Staatschefs, haben an der Feier teilgenommen.", False),
        ("Bei diesem Wettbewerb, der in Johannesburg stattfindet, haben bereits fünf von ihnen ihr Ticket.", False),
        ("Jeden Tag werden Tausende von Autos in eine Werkstatt geschleppt.", False),  # a time expression
        ("Der Grund sind bürokratische Hürden.", False),  # copula: the predicate may come first
        ("Ein Mann aus Malta und ein anderer aus Brasilien wollen die Qualität verbessern.", False),
        ("Besonnen reagierte die Gemeinde: Sie erinnerte an die Opfer.", False),  # Sie before the verb: she
        ("Das Gesetz kennen sie nicht.", False),
        ("Sowohl Barack Obama als auch McCain unterstützen das Rettungspaket.", False),
        ("Andere Länder, darunter auch Spanien, wird sie erst 2010 erreichen.", False),  # sie: the subject
        ("Es gibt zwei Gebäude, in denen Besuche eingeschränkt sind.", False),
        ("Eine Analyse der Märkte, die von der Behörde durchgeführt wird, liegt vor.", False),  # which antecedent?
        ("Wenige Monate später kapitulierte die Bank.", False),  # a time expression in front
        # must not fire
        ("Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.", False),
        ("Wir stehen am Rande des Abgrunds.", False),
        ("Sie war müde.", False),  # sie: she or they
        ("Sie waren müde.", False),
        ("Es kamen viele Leute.", False),  # an expletive es
        ("Der Mann und die Frau gehen nach Hause.", False),  # coordinated subjects
        ("Die Hälfte der Bürger sind dagegen.", False),  # the noun after a noun may be a genitive
        ("50 Prozent der Wähler stimmten dagegen.", False),
        ("Tausende von Angestellten haben sich zusammengeschlossen.", False),
        ("Die besten Momente hat der Abend, wenn gesungen wird.", False),  # object first
        ("Die Geräte, die jeden Kilometer aufzeichnen, sind Kernpunkt eines Versuchs.", False),
        ("Sie sind ein äußerst seltsamer Fetischist.", False),  # a predicate noun after a copula
        ("Der Stamm muss senkrecht abgeworfen werden.", False),  # werden: an infinitive
        ("In Montenegro gewannen sie 1:0 und feiern nun ihre Qualifikation.", False),  # subject left out
        ("Gut gemacht!", False),
        ("", False),
    ],
)
def test_detect(zellig, text, expected):
    assert zellig.detect(text) is expected


@pytest.mark.parametrize(
    "text, source, expected",
    [
        ("Gestern hat sie gewonnen.", "Yesterday they won.", True),  # the source settles sie: they
        ("Gestern haben sie gewonnen.", "Yesterday she won.", True),
        ("Gestern hat sie gewonnen.", "Yesterday she won.", False),
        ("Gestern hat sie gewonnen.", "Yesterday she and they won.", False),  # the source does not settle it
        ("Gestern hat sie gewonnen.", None, False),
        ("Man kann sie gegen einen Feind verwenden.", "They can be used against an enemy.", False),  # sie: object
    ],
)
def test_detect_sie_by_source(zellig, text, source, expected):
    assert zellig.detect(text, source=source) is expected
