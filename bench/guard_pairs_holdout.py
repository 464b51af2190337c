"""Held-out near-duplicate pairs for the Guard, written by hand as an independent second set.

Forty English and German notes, each with a same-language paraphrase, a translation, a changed
version that must not be merged, and an unrelated sibling from the same area. Written without
seeing the tuning half, so it serves as held-out data for bench/guard_pairs.py.
"""

from __future__ import annotations

NOTES: list[dict[str, str]] = [
    {
        "lang": "en",
        "topic": "beekeeping",
        "title": "Colony B mite count and oxalic acid treatment",
        "content": (
            "Hive inspection, 14 August: Colony B (the Carniolan queen from Meyer Apiaries, "
            "marked blue, 2025) had 9 frames of brood and 2 full supers. Alcohol wash gave 6 "
            "mites per 300 bees, so 2% infestation, above our 1% threshold. Decision: start "
            "oxalic acid vaporisation on 18 August, three rounds 5 days apart, 2 g per brood "
            "box. Supers come off first and go to the extractor on Saturday. Colony A only had 1 "
            "mite per 300 bees and stays untreated for now. Next wash in both hives on 8 "
            "September."
        ),
        "paraphrase": (
            "On 14 August we went through Colony B, headed by the blue-marked 2025 Carniolan "
            "queen bought from Meyer Apiaries: 9 brood frames and 2 supers full of honey. The "
            "alcohol wash found 6 mites in 300 bees, i.e. 2%, twice our 1% trigger. So from 18 "
            "August it gets oxalic acid vapour, 2 g per brood box, three times with 5 days "
            "between rounds. Before that, on Saturday, we pull the supers and extract them. "
            "Colony A showed just 1 mite per 300 bees and won't be treated yet. Both hives get "
            "another wash on 8 September."
        ),
        "translation": (
            "Stockkontrolle am 14. August: Volk B (Carnica-Königin von Meyer Apiaries, blau "
            "markiert, Jahrgang 2025) hatte 9 Brutwaben und 2 volle Honigräume. Die Auswaschung "
            "mit Alkohol ergab 6 Milben auf 300 Bienen, also 2 % Befall und damit mehr als "
            "unsere Schwelle von 1 %. Entscheidung: Ab dem 18. August wird mit Oxalsäure "
            "verdampft, drei Durchgänge im Abstand von 5 Tagen, 2 g pro Brutraum. Vorher kommen "
            "die Honigräume ab und am Samstag in die Schleuder. Volk A hatte nur 1 Milbe auf 300 "
            "Bienen und bleibt vorerst unbehandelt. Nächste Auswaschung in beiden Völkern am 8. "
            "September."
        ),
        "changed": (
            "Hive inspection, 14 August: Colony B (the Carniolan queen from Meyer Apiaries, "
            "marked blue, 2025) had 9 frames of brood and 2 full supers. Alcohol wash gave 6 "
            "mites per 300 bees, so 2% infestation, above our 1% threshold. Decision: start "
            "oxalic acid vaporisation on 25 August, three rounds 5 days apart, 2 g per brood "
            "box. Supers come off first and go to the extractor on Saturday. Colony A only had 1 "
            "mite per 300 bees and stays untreated for now. Next wash in both hives on 15 "
            "September."
        ),
        "sibling": (
            "Honey harvest 2025 totals: 38 kg from Colony A and 21 kg from Colony B. Moisture "
            "measured with the refractometer at 17.2%, so it is safe to jar. Sold 60 jars of 500 "
            "g at the Hollingbourne farmers' market at £7.50 each; the rest goes to family. The "
            "label printer needs new 50 mm rolls before next season, and the settling tank tap "
            "drips."
        ),
    },
    {
        "lang": "de",
        "topic": "choir rehearsal",
        "title": "Chorproben ab Oktober im Gemeindesaal",
        "content": (
            "Chorprobe Kantorei St. Johannis: Ab dem 9. Oktober proben wir dienstags von 19:30 "
            "bis 21:15 Uhr im Gemeindesaal statt in der Kirche, weil dort die Heizung erst im "
            "November repariert wird. Für das Adventskonzert am 7. Dezember üben wir Rutters "
            "Magnificat und zwei Sätze aus Bachs Weihnachtsoratorium. Frau Lindqvist übernimmt "
            "die Stimmbildung in den ersten 20 Minuten. Noten kosten 12 Euro pro Heft und werden "
            "bei Herrn Obermayer bezahlt. Sopran und Alt proben am 23. Oktober zusätzlich "
            "getrennt."
        ),
        "paraphrase": (
            "Die Kantorei St. Johannis zieht zum 9. Oktober für die Proben in den Gemeindesaal "
            "um; die Kirchenheizung wird nämlich erst im November instand gesetzt. Geprobt wird "
            "weiterhin dienstags, 19:30 bis 21:15 Uhr. Auf dem Programm für das Adventskonzert "
            "am 7. Dezember stehen das Magnificat von Rutter sowie zwei Sätze des "
            "Weihnachtsoratoriums von Bach. Die ersten 20 Minuten jeder Probe gehören der "
            "Stimmbildung mit Frau Lindqvist. Ein Notenheft kostet 12 Euro, zu zahlen bei Herrn "
            "Obermayer. Am 23. Oktober gibt es für Sopran und Alt eine zusätzliche getrennte "
            "Probe."
        ),
        "translation": (
            "Choir rehearsal, Kantorei St. Johannis: from 9 October we rehearse on Tuesdays from "
            "7:30 to 9:15 pm in the parish hall instead of the church, because the heating there "
            "will not be repaired until November. For the Advent concert on 7 December we are "
            "learning Rutter's Magnificat and two movements from Bach's Christmas Oratorio. Ms "
            "Lindqvist takes over voice training for the first 20 minutes. Scores cost 12 euros "
            "per booklet and are paid to Mr Obermayer. Sopranos and altos have an additional "
            "separate rehearsal on 23 October."
        ),
        "changed": (
            "Chorprobe Kantorei St. Johannis: Wir bleiben auch ab dem 9. Oktober dienstags von "
            "19:30 bis 21:15 Uhr in der Kirche, weil die Heizung dort schon Ende September "
            "repariert wurde. Für das Adventskonzert am 7. Dezember üben wir Rutters Magnificat "
            "und zwei Sätze aus Bachs Weihnachtsoratorium. Frau Lindqvist übernimmt die "
            "Stimmbildung in den ersten 20 Minuten. Noten kosten 12 Euro pro Heft und werden bei "
            "Herrn Obermayer bezahlt. Sopran und Alt proben am 23. Oktober zusätzlich getrennt."
        ),
        "sibling": (
            "Chorfreizeit im Kloster Kirchberg vom 14. bis 16. März: Anreise am Freitag bis 17 "
            "Uhr, Übernachtung im Doppelzimmer 89 Euro inklusive Vollpension, "
            "Einzelzimmerzuschlag 15 Euro pro Nacht. Anmeldung bis 31. Januar bei Ulrike Hahn. "
            "Fahrgemeinschaften werden über die Liste im Probenraum organisiert. Mitbringen: "
            "Bettwäsche, Hausschuhe und einen weichen Bleistift."
        ),
    },
    {
        "lang": "en",
        "topic": "boat mooring",
        "title": "Kestrel mooring contract renewal 2026/27",
        "content": (
            "Mooring contract for 'Kestrel' (Westerly Centaur, 7.9 m) at Harwood Marina renewed "
            "on 2 March for April 2026 to March 2027. Berth C-14 on the pontoon, annual fee "
            "£2,860 incl. VAT, paid in two instalments: £1,430 on 1 April and £1,430 on 1 "
            "October. Contract number HM-2026-0417. An insurance certificate with at least £3 "
            "million third-party cover must reach the harbour office by 15 April. Winter "
            "lift-out on 4 November is included; the cradle is ours. Electricity is metered "
            "separately at 32p per kWh."
        ),
        "paraphrase": (
            "On 2 March I renewed the berth agreement for 'Kestrel', our 7.9 m Westerly Centaur, "
            "at Harwood Marina; it runs from April 2026 through March 2027. We keep pontoon "
            "berth C-14. The yearly charge is £2,860 including VAT, split into two payments of "
            "£1,430 due on 1 April and 1 October. The agreement reference is HM-2026-0417. By 15 "
            "April the harbour office needs our insurance certificate showing third-party cover "
            "of £3 million or more. The price covers the 4 November winter lift-out, and we "
            "supply our own cradle. Shore power is billed by meter at 32p per kWh."
        ),
        "translation": (
            "Liegeplatzvertrag für die 'Kestrel' (Westerly Centaur, 7,9 m) in der Harwood Marina "
            "am 2. März verlängert, Laufzeit April 2026 bis März 2027. Liegeplatz C-14 am Steg, "
            "Jahresgebühr 2.860 £ inkl. Mehrwertsteuer, zahlbar in zwei Raten: 1.430 £ am 1. "
            "April und 1.430 £ am 1. Oktober. Vertragsnummer HM-2026-0417. Eine "
            "Versicherungsbescheinigung mit mindestens 3 Mio. £ Haftpflichtdeckung muss bis zum "
            "15. April beim Hafenbüro sein. Das Auskranen für den Winter am 4. November ist "
            "inbegriffen; der Bootsbock gehört uns. Strom wird separat nach Zähler mit 32 Pence "
            "pro kWh abgerechnet."
        ),
        "changed": (
            "Mooring contract for 'Kestrel' (Westerly Centaur, 7.9 m) at Harwood Marina renewed "
            "on 2 March for April 2026 to March 2027. Berth C-22 on the pontoon, annual fee "
            "£3,140 incl. VAT, paid in two instalments: £1,570 on 1 April and £1,570 on 1 "
            "October. Contract number HM-2026-0417. An insurance certificate with at least £3 "
            "million third-party cover must reach the harbour office by 15 April. Winter "
            "lift-out on 4 November is included; the cradle is ours. Electricity is metered "
            "separately at 32p per kWh."
        ),
        "sibling": (
            "Kestrel engine service log: the Volvo Penta MD2020 was serviced on 11 February by "
            "Solent Marine Engineering. Impeller, raw-water filter and fuel filter replaced, oil "
            "changed to 15W-40, 1.6 litres. Engine hours at service: 1,284. The anode on the "
            "saildrive was 60% gone and was swapped. Invoice £412. Next service due at 1,384 "
            "hours or in February 2027, whichever comes first."
        ),
    },
    {
        "lang": "en",
        "topic": "pottery kiln",
        "title": "Studio kiln firing schedule",
        "content": (
            "Kiln firing schedule for the studio's Skutt KM-1027, agreed at the members' meeting "
            "on 5 May. Bisque firings run on Mondays to cone 04 (about 1,060 °C) with a 2-hour "
            "candle at 93 °C for thick pieces. Glaze firings run on Thursdays to cone 6 (1,222 "
            "°C) with a 15-minute hold and controlled cooling at 83 °C per hour down to 760 °C. "
            "Shelves must be loaded by 6 pm the day before. Each member gets two half-shelves "
            "per firing; extra space costs £4 per shelf. Priya keeps the firing log and checks "
            "the witness cones."
        ),
        "paraphrase": (
            "At the 5 May members' meeting we settled how the studio's Skutt KM-1027 will be "
            "fired. Mondays are for bisque: cone 04, roughly 1,060 °C, and thick work gets a "
            "2-hour candle at 93 °C. Thursdays are for glaze: cone 6, 1,222 °C, held for 15 "
            "minutes, then cooled under control at 83 °C an hour until 760 °C. Work has to be on "
            "the shelves by 6 pm on the previous day. Every member may use two half-shelves per "
            "firing, and additional shelves are £4 each. The firing log and the witness cones "
            "are Priya's job."
        ),
        "translation": (
            "Brennplan für den Skutt KM-1027 des Ateliers, beschlossen bei der "
            "Mitgliederversammlung am 5. Mai. Schrühbrände laufen montags bis Kegel 04 (etwa "
            "1.060 °C), bei dicken Stücken mit 2 Stunden Vortrocknen bei 93 °C. Glasurbrände "
            "laufen donnerstags bis Kegel 6 (1.222 °C) mit 15 Minuten Haltezeit und "
            "kontrollierter Abkühlung um 83 °C pro Stunde bis 760 °C. Die Platten müssen bis 18 "
            "Uhr am Vortag bestückt sein. Jedes Mitglied bekommt zwei halbe Platten pro Brand; "
            "zusätzlicher Platz kostet 4 £ pro Platte. Priya führt das Brennprotokoll und prüft "
            "die Kontrollkegel."
        ),
        "changed": (
            "Kiln firing schedule for the studio's Skutt KM-1027, revised at the members' "
            "meeting on 2 June after two crazed glaze loads. Bisque firings run on Mondays to "
            "cone 04 (about 1,060 °C) with a 2-hour candle at 93 °C for thick pieces. Glaze "
            "firings now run on Thursdays to cone 5 (1,196 °C) with no hold and controlled "
            "cooling at 83 °C per hour down to 760 °C. Shelves must be loaded by 6 pm the day "
            "before. Each member gets two half-shelves per firing; extra space costs £4 per "
            "shelf. Priya keeps the firing log and checks the witness cones."
        ),
        "sibling": (
            "Clay order for the studio: 20 bags of Valentine's Earthstone Original (12.5 kg "
            "each) and 10 bags of Audrey Blackman porcelain from Potclays, delivered on 19 "
            "September, £486 in total including delivery. Store the bags on the pallet by the "
            "back door, never directly on the concrete floor. The reclaim bucket gets emptied "
            "every Friday by whoever fired last."
        ),
    },
    {
        "lang": "de",
        "topic": "rental car damage",
        "title": "Schadensprotokoll Mietwagen Sixt München Juli",
        "content": (
            "Schadensprotokoll Mietwagen: VW Golf Variant, Kennzeichen M-SX 4821, bei Sixt am "
            "Flughafen München am 3. Juli um 9:40 Uhr übernommen, Mietvertrag 9918-33471. "
            "Vorschäden laut Übergabeprotokoll: Kratzer an der hinteren Stoßstange links, 4 cm. "
            "Bei Rückgabe am 10. Juli neu festgestellt: Delle in der Beifahrertür, etwa 2 cm, "
            "vermutlich vom Parkplatz in Garmisch. Selbstbeteiligung laut Vertrag 950 Euro. "
            "Fotos liegen im Ordner Urlaub 2025. Die Kreditkarte (Barclays Visa) deckt die "
            "Selbstbeteiligung bis 1.000 Euro, Meldung dort innerhalb von 30 Tagen."
        ),
        "paraphrase": (
            "Mietwagenschaden: Den VW Golf Variant (M-SX 4821) haben wir am 3. Juli um 9:40 Uhr "
            "bei Sixt am Münchner Flughafen abgeholt, Vertragsnummer 9918-33471. Im "
            "Übergabeprotokoll war bereits ein 4 cm langer Kratzer hinten links an der "
            "Stoßstange vermerkt. Als wir das Auto am 10. Juli zurückgaben, fiel eine rund 2 cm "
            "große Delle an der Tür auf der Beifahrerseite auf, wahrscheinlich auf dem Parkplatz "
            "in Garmisch entstanden. Der Vertrag sieht 950 Euro Selbstbeteiligung vor. Die "
            "Bilder sind im Ordner Urlaub 2025 abgelegt. Über die Barclays Visa ist die "
            "Selbstbeteiligung bis 1.000 Euro abgesichert; gemeldet werden muss das dort binnen "
            "30 Tagen."
        ),
        "translation": (
            "Rental car damage report: VW Golf Variant, licence plate M-SX 4821, picked up from "
            "Sixt at Munich Airport on 3 July at 9:40 am, rental agreement 9918-33471. "
            "Pre-existing damage according to the handover report: a 4 cm scratch on the rear "
            "bumper, left side. Newly found on return on 10 July: a dent in the passenger door, "
            "about 2 cm, probably from the car park in Garmisch. The excess under the contract "
            "is 950 euros. Photos are in the folder Urlaub 2025. The credit card (Barclays Visa) "
            "covers the excess up to 1,000 euros; it has to be reported there within 30 days."
        ),
        "changed": (
            "Schadensprotokoll Mietwagen: VW Golf Variant, Kennzeichen M-SX 4821, bei Sixt am "
            "Flughafen München am 3. Juli um 9:40 Uhr übernommen, Mietvertrag 9918-33471. "
            "Vorschäden laut Übergabeprotokoll: Kratzer an der hinteren Stoßstange links, 4 cm. "
            "Bei Rückgabe am 12. Juli neu festgestellt: Delle in der Beifahrertür, etwa 2 cm, "
            "vermutlich vom Parkplatz in Garmisch. Selbstbeteiligung laut Vertrag 1.150 Euro. "
            "Fotos liegen im Ordner Urlaub 2025. Die Kreditkarte (Barclays Visa) deckt die "
            "Selbstbeteiligung bis 1.000 Euro, Meldung dort innerhalb von 30 Tagen."
        ),
        "sibling": (
            "Mietwagen für die Toskana gebucht: Fiat 500L bei Europcar Florenz, Abholung am 14. "
            "September um 11 Uhr, Rückgabe am 21. September, 312 Euro inklusive Vollkasko ohne "
            "Selbstbeteiligung. Buchungsnummer EC-77102. Jonas ist als zweiter Fahrer "
            "eingetragen, das kostet 8 Euro pro Tag extra. Tankregelung voll/voll, Kindersitz "
            "bringen wir selbst mit."
        ),
    },
    {
        "lang": "en",
        "topic": "sourdough baking",
        "title": "Sourdough routine for the cold kitchen",
        "content": (
            "Sourdough routine that finally works in our cold kitchen (about 18 °C in winter): "
            "feed the rye starter 'Bertha' at 1:5:5 (10 g starter, 50 g Arkadia wholegrain rye, "
            "50 g water at 30 °C) every evening at 9 pm. It peaks after about 10 hours. For two "
            "loaves mix 150 g starter, 700 g water, 900 g bread flour, 100 g wholemeal and 20 g "
            "salt; bulk ferment 5 hours with four folds, then shape and retard in the fridge at "
            "4 °C for 14 hours. Bake in the Le Creuset at 250 °C, 20 minutes lid on, 25 minutes "
            "lid off."
        ),
        "paraphrase": (
            "What finally got sourdough going in our chilly kitchen, which sits near 18 °C in "
            "winter: Bertha, the rye starter, is fed nightly at 9 pm in a 1:5:5 ratio, meaning "
            "10 g of starter, 50 g of Arkadia wholegrain rye and 50 g of 30 °C water. Roughly 10 "
            "hours later it is at its peak. A two-loaf batch is 150 g starter, 700 g water, 900 "
            "g bread flour, 100 g wholemeal and 20 g salt. Give it 5 hours of bulk with four "
            "sets of folds, shape, and let it sit 14 hours in the fridge at 4 °C. Bake inside "
            "the Le Creuset at 250 °C: 20 minutes covered, 25 uncovered."
        ),
        "translation": (
            "Sauerteig-Routine, die in unserer kalten Küche (im Winter etwa 18 °C) endlich "
            "funktioniert: Das Roggen-Anstellgut 'Bertha' jeden Abend um 21 Uhr im Verhältnis "
            "1:5:5 füttern (10 g Anstellgut, 50 g Arkadia-Vollkornroggenmehl, 50 g Wasser mit 30 "
            "°C). Nach etwa 10 Stunden ist es auf dem Höhepunkt. Für zwei Laibe 150 g "
            "Anstellgut, 700 g Wasser, 900 g Brotmehl, 100 g Vollkornmehl und 20 g Salz mischen; "
            "5 Stunden Stockgare mit viermal Dehnen und Falten, dann formen und 14 Stunden bei 4 "
            "°C im Kühlschrank reifen lassen. Im Le Creuset bei 250 °C backen, 20 Minuten mit "
            "Deckel, 25 Minuten ohne."
        ),
        "changed": (
            "Sourdough routine for our cold kitchen (about 18 °C in winter), changed because the "
            "loaves kept coming out flat: feed the rye starter 'Bertha' at 1:2:2 (25 g starter, "
            "50 g Arkadia wholegrain rye, 50 g water at 30 °C) every morning at 7 am. It peaks "
            "after about 6 hours. For two loaves mix 150 g starter, 700 g water, 900 g bread "
            "flour, 100 g wholemeal and 20 g salt; bulk ferment 5 hours with four folds, then "
            "shape and retard in the fridge at 4 °C for 14 hours. Bake in the Le Creuset at 250 "
            "°C, 20 minutes lid on, 25 minutes lid off."
        ),
        "sibling": (
            "Focaccia for the street party on 21 June: 1 kg Caputo Pizzeria flour, 800 g water, "
            "10 g instant yeast, 22 g salt and 60 ml olive oil, overnight in the fridge in the "
            "big Cambro tub. Spread in two oiled 30 x 40 cm trays, dimple, top with rosemary and "
            "Maldon salt, bake at 230 °C for 22 minutes. Feeds about 40 people cut into squares."
        ),
    },
    {
        "lang": "de",
        "topic": "heating maintenance",
        "title": "Wartung Gastherme Vaillant im September",
        "content": (
            "Heizungswartung Gastherme Vaillant ecoTEC plus VC 206 im Keller, Baujahr 2014: "
            "Wartungsvertrag mit der Firma Brandl Haustechnik, jährlich 189 Euro brutto, Termin "
            "immer im September. Letzte Wartung am 17. September durch Herrn Kowalski: Brenner "
            "gereinigt, Zündelektrode getauscht, Abgaswerte in Ordnung (CO 28 ppm). Anlagendruck "
            "auf 1,6 bar aufgefüllt. Das Ausdehnungsgefäß sollte beim nächsten Mal geprüft "
            "werden, es war nur noch mit 0,8 bar vorgespannt. Notdienst Brandl: 0881 92 33 40."
        ),
        "paraphrase": (
            "Unsere Gastherme im Keller, eine Vaillant ecoTEC plus VC 206 von 2014, wird von "
            "Brandl Haustechnik gewartet; der Vertrag kostet 189 Euro brutto im Jahr, die "
            "Wartung findet stets im September statt. Zuletzt war Herr Kowalski am 17. September "
            "da. Er hat den Brenner gesäubert und die Zündelektrode erneuert; die Abgasmessung "
            "war unauffällig, CO lag bei 28 ppm. Den Druck der Anlage hat er wieder auf 1,6 bar "
            "gebracht. Beim nächsten Termin muss das Ausdehnungsgefäß kontrolliert werden, denn "
            "der Vordruck betrug nur noch 0,8 bar. Für Notfälle erreicht man Brandl unter 0881 "
            "92 33 40."
        ),
        "translation": (
            "Heating maintenance, Vaillant ecoTEC plus VC 206 gas boiler in the basement, built "
            "in 2014: maintenance contract with Brandl Haustechnik, 189 euros gross per year, "
            "appointment always in September. Last service on 17 September by Mr Kowalski: "
            "burner cleaned, ignition electrode replaced, flue gas values fine (CO 28 ppm). "
            "System pressure topped up to 1.6 bar. The expansion vessel should be checked next "
            "time; its pre-charge was only 0.8 bar. Brandl emergency service: 0881 92 33 40."
        ),
        "changed": (
            "Heizungswartung Gastherme Vaillant ecoTEC plus VC 206 im Keller, Baujahr 2014: "
            "Wartungsvertrag mit der Firma Brandl Haustechnik, jährlich 189 Euro brutto, Termin "
            "immer im September. Letzte Wartung am 24. September durch Herrn Kowalski: Brenner "
            "gereinigt, Zündelektrode getauscht, Abgaswerte in Ordnung (CO 41 ppm). Anlagendruck "
            "auf 1,6 bar aufgefüllt. Das Ausdehnungsgefäß sollte beim nächsten Mal geprüft "
            "werden, es war nur noch mit 0,8 bar vorgespannt. Notdienst Brandl: 0881 92 33 40."
        ),
        "sibling": (
            "Wasserenthärter im Hausanschlussraum: Grünbeck softliQ:SC18, eingestellt auf 6 °dH "
            "Resthärte. Regeneriersalz in Tablettenform, ein 25-kg-Sack reicht etwa 10 Wochen, "
            "zuletzt nachgefüllt am 2. Februar. Die Kartusche im Vorfilter alle 6 Monate "
            "wechseln, Ersatzteilnummer 103 093. Der Baumarkt in Weilheim hat das Salz meist "
            "günstiger als der Installateur."
        ),
    },
    {
        "lang": "en",
        "topic": "database connection pooling",
        "title": "Billing service moves to PgBouncer",
        "content": (
            "Decision from the ops sync on 12 March: the billing service drops per-pod "
            "connection pools and goes through PgBouncer 1.22 in transaction mode in front of "
            "the Postgres 15 primary. Settings: max_client_conn 800, default_pool_size 20 per "
            "database/user pair, at most 40 server connections. Reason: with 60 pods we hit "
            "max_connections = 500 during the 27 February deploy. Prepared statements stay "
            "disabled in psycopg 3.1 until protocol-level support is load-tested. Owner: Tomasz. "
            "Staging rollout on 18 March, production on 25 March."
        ),
        "paraphrase": (
            "At the 12 March ops sync we agreed that billing will stop keeping a connection pool "
            "in every pod. Instead, PgBouncer 1.22, running in transaction mode, sits in front "
            "of the Postgres 15 primary. It is configured with max_client_conn 800 and a "
            "default_pool_size of 20 for each database/user pair, capped at 40 connections to "
            "the server. Why: the deploy on 27 February, with 60 pods running, exhausted the "
            "max_connections limit of 500. Until protocol-level prepared statement support has "
            "been load-tested, prepared statements remain off in psycopg 3.1. Tomasz owns this; "
            "it lands in staging on 18 March and in production on 25 March."
        ),
        "translation": (
            "Entscheidung aus dem Ops-Sync am 12. März: Der Billing-Service verzichtet auf "
            "Connection-Pools pro Pod und läuft künftig über PgBouncer 1.22 im Transaktionsmodus "
            "vor dem Postgres-15-Primary. Einstellungen: max_client_conn 800, default_pool_size "
            "20 pro Datenbank/Benutzer-Paar, höchstens 40 Serververbindungen. Grund: Mit 60 Pods "
            "haben wir beim Deployment am 27. Februar das Limit max_connections = 500 erreicht. "
            "Prepared Statements bleiben in psycopg 3.1 deaktiviert, bis die Unterstützung auf "
            "Protokollebene unter Last getestet ist. Verantwortlich: Tomasz. Rollout auf Staging "
            "am 18. März, in Produktion am 25. März."
        ),
        "changed": (
            "Decision from the ops sync on 19 March: the billing service keeps its per-pod "
            "connection pools and does not go through PgBouncer 1.22; instead each pod's pool in "
            "front of the Postgres 15 primary is capped at 6 connections. Reason: with 60 pods "
            "we hit max_connections = 500 during the 27 February deploy, and transaction mode "
            "broke our advisory locks in staging. Prepared statements stay enabled in psycopg "
            "3.1. Owner: Tomasz. Production change on 25 March."
        ),
        "sibling": (
            "Runbook: rotating the Postgres replication user password. Generate the new secret "
            "in Vault at kv/db/billing/replicator, update the pg_hba entries on both replicas, "
            "then run ALTER ROLE replicator PASSWORD on the primary. Replicas do not need a "
            "restart; check that pg_stat_replication shows state streaming within 60 seconds. "
            "Last rotation: 4 January, done by Aylin."
        ),
    },
    {
        "lang": "en",
        "topic": "allotment gardening",
        "title": "Tomato plan for allotment plot 27",
        "content": (
            "Allotment plot 27 at Fenwick Road, tomato plan for this season: sow 'Sungold', "
            "'Black Krim' and 'Shirley' indoors on the windowsill on 15 March, 6 seeds each, and "
            "pot on into 9 cm pots at the two-leaf stage. Plant out in the polytunnel after the "
            "last frost, aiming for 10 May, spacing 45 cm. Feed weekly with Tomorite once the "
            "first truss sets, 20 ml per 4.5 litre can. Last year 'Black Krim' split badly after "
            "the heavy rain on 3 August, so water more evenly. Plot rent of £62 is due to the "
            "association by 31 March."
        ),
        "paraphrase": (
            "For plot 27 on Fenwick Road this year's tomatoes are 'Sungold', 'Black Krim' and "
            "'Shirley'. Six seeds of each go in on the indoor windowsill on 15 March and move "
            "into 9 cm pots once they show two leaves. Around 10 May, after the final frost, "
            "they go into the polytunnel 45 cm apart. When the first truss has set, give them "
            "Tomorite every week at 20 ml in a 4.5 litre can. The 'Black Krim' fruit cracked a "
            "lot after last year's downpour on 3 August, so aim for steadier watering. The £62 "
            "plot rent has to reach the association by 31 March."
        ),
        "translation": (
            "Kleingarten, Parzelle 27 an der Fenwick Road, Tomatenplan für diese Saison: "
            "'Sungold', 'Black Krim' und 'Shirley' am 15. März drinnen auf der Fensterbank "
            "aussäen, je 6 Samen, und im Zweiblattstadium in 9-cm-Töpfe umtopfen. Nach dem "
            "letzten Frost in den Folientunnel auspflanzen, angepeilt ist der 10. Mai, Abstand "
            "45 cm. Sobald am ersten Blütenstand Früchte ansetzen, wöchentlich mit Tomorite "
            "düngen, 20 ml pro 4,5-Liter-Kanne. Letztes Jahr ist 'Black Krim' nach dem "
            "Starkregen am 3. August stark aufgeplatzt, also gleichmäßiger gießen. Die "
            "Parzellenpacht von 62 £ muss bis zum 31. März beim Verein sein."
        ),
        "changed": (
            "Allotment plot 27 at Fenwick Road, tomato plan for this season: sow 'Sungold', "
            "'Black Krim' and 'Shirley' indoors on the windowsill on 22 March, 6 seeds each, and "
            "pot on into 9 cm pots at the two-leaf stage. Plant out in the polytunnel after the "
            "last frost, aiming for 10 May, spacing 60 cm. Feed weekly with Tomorite once the "
            "first truss sets, 20 ml per 4.5 litre can. Last year 'Black Krim' split badly after "
            "the heavy rain on 3 August, so water more evenly. Plot rent of £62 is due to the "
            "association by 31 March."
        ),
        "sibling": (
            "Allotment shed break-in on 9 November: missing are the Stihl hedge trimmer (bought "
            "in 2021 for £189) and two Spear & Jackson spades. The padlock was cut. Reported to "
            "the police, reference CAD 4471-09NOV. The association's insurance excess is £100; "
            "the claim form goes to Margaret, the plot secretary, by 30 November."
        ),
    },
    {
        "lang": "de",
        "topic": "car tyres",
        "title": "Winterreifen Skoda Octavia montiert",
        "content": (
            "Reifenwechsel Skoda Octavia (Kennzeichen FFB-KL 302): Winterreifen Continental "
            "WinterContact TS 870, 205/55 R16, montiert am 28. Oktober bei Reifen Huber in "
            "Olching, 25 Euro für den Wechsel plus 45 Euro Einlagerung der Sommerreifen pro "
            "Saison. Profiltiefe gemessen: vorne 6,1 mm, hinten 6,8 mm. Radschrauben mit 120 Nm "
            "angezogen, nach 50 km nachziehen lassen. Die Sommerreifen (Michelin Primacy 4, DOT "
            "2120) haben nur noch 3,2 mm und sollen im Frühjahr ersetzt werden. Nächster Wechsel "
            "zu Ostern, ungefähr Mitte April."
        ),
        "paraphrase": (
            "Beim Skoda Octavia FFB-KL 302 sind seit dem 28. Oktober die Winterreifen drauf: "
            "Continental WinterContact TS 870 in 205/55 R16, aufgezogen von Reifen Huber in "
            "Olching. Der Wechsel hat 25 Euro gekostet, die Sommerreifen lagern dort für 45 Euro "
            "je Saison. Gemessene Profiltiefe: 6,1 mm an der Vorderachse, 6,8 mm an der "
            "Hinterachse. Die Radschrauben wurden mit 120 Nm festgezogen und müssen nach 50 km "
            "noch einmal nachgezogen werden. Die eingelagerten Michelin Primacy 4 (DOT 2120) "
            "sind bei 3,2 mm angekommen und werden im Frühjahr durch neue ersetzt. "
            "Zurückgewechselt wird um Ostern herum, etwa Mitte April."
        ),
        "translation": (
            "Tyre change, Skoda Octavia (licence plate FFB-KL 302): winter tyres Continental "
            "WinterContact TS 870, 205/55 R16, fitted on 28 October at Reifen Huber in Olching, "
            "25 euros for the change plus 45 euros per season for storing the summer tyres. "
            "Tread depth measured: front 6.1 mm, rear 6.8 mm. Wheel bolts tightened to 120 Nm, "
            "to be re-tightened after 50 km. The summer tyres (Michelin Primacy 4, DOT 2120) are "
            "down to 3.2 mm and are to be replaced in spring. Next change at Easter, roughly "
            "mid-April."
        ),
        "changed": (
            "Reifenwechsel Skoda Octavia (Kennzeichen FFB-KL 302): Winterreifen Continental "
            "WinterContact TS 870, 205/55 R16, montiert am 28. Oktober bei Reifen Huber in "
            "Olching, 25 Euro für den Wechsel, keine Einlagerung. Profiltiefe gemessen: vorne "
            "6,1 mm, hinten 6,8 mm. Radschrauben mit 120 Nm angezogen, nach 50 km nachziehen "
            "lassen. Die Sommerreifen (Michelin Primacy 4, DOT 2120) hatten nur noch 3,2 mm und "
            "wurden gleich vor Ort entsorgt, 12 Euro Gebühr. Nächster Wechsel zu Ostern, "
            "ungefähr Mitte April, dann mit neu gekauften Sommerreifen."
        ),
        "sibling": (
            "TÜV-Termin für den Skoda Octavia am 6. Februar um 8:15 Uhr bei der DEKRA in "
            "Fürstenfeldbruck. Vorher erledigen: Die Kennzeichenbeleuchtung hinten rechts "
            "flackert, die Wischerblätter sind fällig, und der Verbandskasten läuft im März ab. "
            "Die Hauptuntersuchung mit Abgasuntersuchung kostet etwa 145 Euro. Fahrzeugschein "
            "und den letzten Prüfbericht mitnehmen."
        ),
    },
    {
        "lang": "en",
        "topic": "school meeting",
        "title": "Mila parent-teacher meeting in November",
        "content": (
            "Parent-teacher meeting for Mila (Year 5, class 5B, Mr Okafor) on 21 November at "
            "4:40 pm. Reading is at the age-expected level; she finished 14 books in the autumn "
            "term reading challenge. Maths: times tables are solid up to 12, but column "
            "subtraction with borrowing needs practice, so he suggested 10 minutes a day with "
            "the White Rose subtraction worksheets he will send home. She talks a lot with Eliza "
            "during lessons, so they will be seated apart from 1 December. Next check-in at the "
            "spring conference on 12 March."
        ),
        "paraphrase": (
            "We saw Mr Okafor, Mila's teacher in 5B (Year 5), on 21 November at 4:40 pm. Her "
            "reading is where it should be for her age, and in the autumn term reading challenge "
            "she got through 14 books. In maths she knows her times tables securely to 12; where "
            "she struggles is column subtraction that involves borrowing. His advice: 10 minutes "
            "daily with the White Rose subtraction worksheets, which he will send home. Because "
            "she chats with Eliza in class, the two will sit in different places starting 1 "
            "December. We will review progress at the spring conference on 12 March."
        ),
        "translation": (
            "Elterngespräch für Mila (5. Schuljahr, Klasse 5B, Mr Okafor) am 21. November um "
            "16:40 Uhr. Lesen ist auf altersgemäßem Niveau; bei der Lese-Challenge im "
            "Herbsttrimester hat sie 14 Bücher geschafft. Mathe: Das Einmaleins sitzt bis 12, "
            "aber schriftliches Subtrahieren mit Übertrag muss sie noch üben, deshalb schlägt er "
            "täglich 10 Minuten mit den White-Rose-Arbeitsblättern zur Subtraktion vor, die er "
            "nach Hause schickt. Sie redet im Unterricht viel mit Eliza, deshalb werden die "
            "beiden ab dem 1. Dezember getrennt gesetzt. Nächstes Gespräch beim Frühjahrstermin "
            "am 12. März."
        ),
        "changed": (
            "Parent-teacher meeting for Mila (Year 5, class 5B, Mr Okafor) on 21 November at "
            "4:40 pm. Reading is at the age-expected level; she finished 9 books in the autumn "
            "term reading challenge. Maths: times tables are solid up to 12, but column "
            "subtraction with borrowing needs practice, so he suggested 10 minutes a day with "
            "the White Rose subtraction worksheets he will send home. She talks a lot with Eliza "
            "during lessons, so they will be seated apart from 8 January. Next check-in at the "
            "spring conference on 12 March."
        ),
        "sibling": (
            "School trip for Year 5 to the Thinktank science museum in Birmingham on 6 February. "
            "The coach leaves at 8:15 am and is back by 4 pm. Cost £18, to be paid through "
            "ParentPay by 20 January. Packed lunch, no fizzy drinks and no nuts. Mila needs her "
            "inhaler in a labelled bag; the consent form is signed and in her book bag."
        ),
    },
    {
        "lang": "de",
        "topic": "service charges",
        "title": "Nebenkostenabrechnung 2024 von Seidl & Partner",
        "content": (
            "Nebenkostenabrechnung 2024 von der Hausverwaltung Seidl & Partner ist am 14. Mai "
            "gekommen: Nachzahlung 418,60 Euro, fällig bis 30. Juni. Größte Posten: Heizung "
            "1.136 Euro (Vorjahr 874 Euro), Wasser 312 Euro, Hausmeister 240 Euro. Unser Anteil "
            "wird nach 74,5 m² von 612 m² Gesamtfläche berechnet. Auffällig: Die Gartenpflege "
            "ist doppelt aufgeführt, einmal mit 186 Euro und einmal mit 93 Euro. Ich habe am 20. "
            "Mai schriftlich Belegeinsicht verlangt und zahle erst danach. Die monatliche "
            "Vorauszahlung steigt ab Juli von 210 auf 245 Euro."
        ),
        "paraphrase": (
            "Am 14. Mai lag die Betriebskostenabrechnung für 2024 von Seidl & Partner im "
            "Briefkasten. Wir sollen 418,60 Euro nachzahlen, spätestens am 30. Juni. Am "
            "stärksten schlagen die Heizkosten mit 1.136 Euro zu Buche, nach 874 Euro im Jahr "
            "davor; dazu kommen 312 Euro Wasser und 240 Euro für den Hausmeister. Abgerechnet "
            "wird unser Anteil über 74,5 m² bei insgesamt 612 m². Seltsam ist, dass die "
            "Gartenpflege zweimal vorkommt, mit 186 Euro und mit 93 Euro. Deshalb habe ich am "
            "20. Mai per Brief Einsicht in die Belege gefordert; bezahlt wird erst im Anschluss. "
            "Ab Juli beträgt die Vorauszahlung 245 statt 210 Euro im Monat."
        ),
        "translation": (
            "The 2024 service charge statement from the property management company Seidl & "
            "Partner arrived on 14 May: additional payment of 418.60 euros, due by 30 June. "
            "Largest items: heating 1,136 euros (previous year 874 euros), water 312 euros, "
            "caretaker 240 euros. Our share is calculated on 74.5 m² out of a total area of 612 "
            "m². Odd: garden maintenance is listed twice, once at 186 euros and once at 93 "
            "euros. On 20 May I asked in writing to inspect the receipts and will only pay after "
            "that. The monthly advance payment rises from 210 to 245 euros from July."
        ),
        "changed": (
            "Nebenkostenabrechnung 2024 von der Hausverwaltung Seidl & Partner ist am 14. Mai "
            "gekommen: Nachzahlung zunächst 418,60 Euro, fällig bis 30. Juni. Größte Posten: "
            "Heizung 1.136 Euro (Vorjahr 874 Euro), Wasser 312 Euro, Hausmeister 240 Euro. Unser "
            "Anteil wird nach 74,5 m² von 612 m² Gesamtfläche berechnet. Die doppelt aufgeführte "
            "Gartenpflege über 93 Euro hat die Verwaltung nach meiner Belegeinsicht am 3. Juni "
            "gestrichen; die korrigierte Nachzahlung von 407,28 Euro habe ich am 10. Juni "
            "überwiesen. Die monatliche Vorauszahlung steigt ab Juli von 210 auf 245 Euro."
        ),
        "sibling": (
            "Hausratversicherung bei der HUK-Coburg, Vertragsnummer 44-281-0937: "
            "Versicherungssumme 65.000 Euro, Jahresbeitrag 142,80 Euro, Selbstbeteiligung 150 "
            "Euro, Fahrraddiebstahl bis 1.500 Euro mitversichert. Kündigungsfrist drei Monate "
            "zum 1. Januar. Die Rechnungen für beide Fahrräder liegen im Ordner Versicherungen, "
            "Rahmennummern sind fotografiert."
        ),
    },
    {
        "lang": "en",
        "topic": "physiotherapy",
        "title": "Knee physio plan after meniscus surgery",
        "content": (
            "Physio plan for my left knee after the meniscus trim (arthroscopy on 8 January at "
            "St Luke's, Dr Havel). Sessions with Joanna at Riverside Physio every Tuesday at 8 "
            "am, six sessions, £55 each, covered by Vitality up to £500 a year. Home exercises "
            "twice a day: 3 x 15 straight-leg raises, 3 x 10 wall sits of 30 seconds, and 10 "
            "minutes on the exercise bike with no resistance. No running until week 8 and no "
            "squats below 90 degrees until she says so. Swelling is measured at the kneecap: 41 "
            "cm on 22 January versus 38.5 cm on the right."
        ),
        "paraphrase": (
            "After Dr Havel trimmed the meniscus in my left knee arthroscopically at St Luke's "
            "on 8 January, I'm doing physio with Joanna at Riverside Physio: six Tuesday "
            "sessions at 8 am, £55 per session, which Vitality pays for up to £500 per year. At "
            "home, two times a day: straight-leg raises 3 x 15, wall sits 3 x 10 holding 30 "
            "seconds, and 10 minutes of resistance-free cycling on the exercise bike. Running is "
            "off until week 8, and squatting deeper than 90 degrees waits for her go-ahead. She "
            "measures swelling around the kneecap: 41 cm on 22 January compared with 38.5 cm on "
            "the right side."
        ),
        "translation": (
            "Physiotherapieplan für mein linkes Knie nach der Meniskusteilentfernung "
            "(Arthroskopie am 8. Januar im St Luke's, Dr. Havel). Termine bei Joanna in der "
            "Praxis Riverside Physio jeden Dienstag um 8 Uhr, sechs Termine zu je 55 £, von "
            "Vitality bis 500 £ pro Jahr übernommen. Übungen zu Hause zweimal täglich: 3 x 15 "
            "Beinheben mit gestrecktem Bein, 3 x 10 Wandsitzen zu je 30 Sekunden und 10 Minuten "
            "auf dem Heimtrainer ohne Widerstand. Kein Laufen bis Woche 8 und keine Kniebeugen "
            "tiefer als 90 Grad, bis sie es freigibt. Die Schwellung wird an der Kniescheibe "
            "gemessen: 41 cm am 22. Januar gegenüber 38,5 cm rechts."
        ),
        "changed": (
            "Physio plan for my left knee after the meniscus trim (arthroscopy on 8 January at "
            "St Luke's, Dr Havel). Sessions with Joanna at Riverside Physio every Tuesday at 8 "
            "am, ten sessions, £55 each, covered by Vitality up to £500 a year. Home exercises "
            "twice a day: 3 x 15 straight-leg raises, 3 x 10 wall sits of 30 seconds, and 10 "
            "minutes on the exercise bike with no resistance. No running until week 12 and no "
            "squats below 90 degrees until she says so. Swelling is measured at the kneecap: 41 "
            "cm on 22 January versus 38.5 cm on the right."
        ),
        "sibling": (
            "Blood pressure log, Omron M3 home monitor: the morning average for the week of 3 "
            "March was 138/88, the evening average 131/84. GP Dr Mensah wants readings below "
            "135/85 before deciding on medication; next review on 14 April. Meanwhile: cut down "
            "on salt, walk 30 minutes every day, and coffee only before noon."
        ),
    },
    {
        "lang": "en",
        "topic": "rail travel",
        "title": "Portugal itinerary 11-19 May",
        "content": (
            "Portugal trip plan, 11-19 May: fly TAP TP1351 from London Heathrow to Lisbon on 11 "
            "May, landing 10:55. Three nights at Casa do Largo in Alfama (€142 per night, "
            "booking 58213907). On 14 May take the Alfa Pendular at 9:00 from Santa Apolónia to "
            "Porto Campanhã, seats 23 and 24 in carriage 4, €62.70 for both. Porto: four nights "
            "at the Rua das Flores apartment via Airbnb. Day trip to the Douro valley with the "
            "Quinta do Seixo tour on 16 May. Return from Porto on 19 May with easyJet EZY6542 at "
            "18:20."
        ),
        "paraphrase": (
            "Portugal, 11 to 19 May. Outbound is TAP flight TP1351, Heathrow to Lisbon on 11 "
            "May, arriving 10:55. We stay three nights in Alfama at Casa do Largo, €142 a night, "
            "booking number 58213907. On 14 May the 9:00 Alfa Pendular takes us from Santa "
            "Apolónia to Porto Campanhã; we have seats 23 and 24 in carriage 4, €62.70 for the "
            "two of us. In Porto it's four nights in an Airbnb flat on Rua das Flores, with a "
            "Douro valley day out including the Quinta do Seixo tour on 16 May. We fly home from "
            "Porto on 19 May, easyJet EZY6542, departing 18:20."
        ),
        "translation": (
            "Reiseplan Portugal, 11. bis 19. Mai: Flug mit TAP TP1351 von London Heathrow nach "
            "Lissabon am 11. Mai, Landung 10:55 Uhr. Drei Nächte in der Casa do Largo in der "
            "Alfama (142 € pro Nacht, Buchung 58213907). Am 14. Mai mit dem Alfa Pendular um "
            "9:00 Uhr von Santa Apolónia nach Porto Campanhã, Plätze 23 und 24 in Wagen 4, 62,70 "
            "€ für beide. Porto: vier Nächte in der Wohnung in der Rua das Flores über Airbnb. "
            "Tagesausflug ins Douro-Tal mit Führung in der Quinta do Seixo am 16. Mai. Rückflug "
            "ab Porto am 19. Mai mit easyJet EZY6542 um 18:20 Uhr."
        ),
        "changed": (
            "Portugal trip plan, 11-19 May: fly TAP TP1351 from London Heathrow to Lisbon on 11 "
            "May, landing 10:55. Three nights at Casa do Largo in Alfama (€142 per night, "
            "booking 58213907). On 14 May we drive to Porto instead of taking the train: hire "
            "car from Hertz at Lisboa Oriente, collected at 9:00, €198 for five days, returned "
            "at Porto airport. Porto: four nights at the Rua das Flores apartment via Airbnb. "
            "Day trip to the Douro valley with the Quinta do Seixo tour on 16 May. Return from "
            "Porto on 19 May with easyJet EZY6542 at 18:20."
        ),
        "sibling": (
            "Travel insurance for the family: annual multi-trip policy with Staysure, policy "
            "SSY-2209184, valid 1 April 2026 to 31 March 2027, £164 for four people, Europe "
            "only, winter sports not covered. Medical excess £75. Emergency line +44 1455 852 "
            "215. Tom's GHIC card expires in August, so renew it before the summer holidays."
        ),
    },
    {
        "lang": "de",
        "topic": "allotment association",
        "title": "Protokoll Jahreshauptversammlung Kleingartenverein Am Mühlbach",
        "content": (
            "Protokoll der Jahreshauptversammlung Kleingartenverein Am Mühlbach e.V., 8. März, "
            "Vereinsheim: 46 von 112 Mitgliedern anwesend. Beschlossen wurde die Erhöhung des "
            "Jahresbeitrags von 38 auf 45 Euro ab 2026 (31 Ja, 12 Nein, 3 Enthaltungen). Die "
            "Wasserleitung im Weg C wird im April für rund 4.800 Euro erneuert, finanziert aus "
            "der Rücklage. Gemeinschaftsarbeit: 6 Stunden pro Parzelle und Jahr, nicht "
            "geleistete Stunden kosten 15 Euro. Neuer Kassenwart ist Dieter Ruppert, Frau Sommer "
            "bleibt Vorsitzende. Sommerfest am 12. Juli."
        ),
        "paraphrase": (
            "Bei der Jahreshauptversammlung des Kleingartenvereins Am Mühlbach e.V. am 8. März "
            "im Vereinsheim waren 46 der 112 Mitglieder da. Mit 31 Ja- gegen 12 Nein-Stimmen bei "
            "3 Enthaltungen steigt der Jahresbeitrag ab 2026 von 38 auf 45 Euro. Im April wird "
            "die Wasserleitung in Weg C ersetzt; die etwa 4.800 Euro kommen aus der Rücklage. "
            "Jede Parzelle schuldet weiterhin 6 Stunden Gemeinschaftsarbeit im Jahr, jede "
            "fehlende Stunde wird mit 15 Euro berechnet. Das Amt des Kassenwarts übernimmt "
            "Dieter Ruppert, Vorsitzende bleibt Frau Sommer. Gefeiert wird beim Sommerfest am "
            "12. Juli."
        ),
        "translation": (
            "Minutes of the annual general meeting of the allotment association Am Mühlbach "
            "e.V., 8 March, clubhouse: 46 of 112 members present. The meeting decided to raise "
            "the annual fee from 38 to 45 euros from 2026 (31 yes, 12 no, 3 abstentions). The "
            "water pipe on path C will be renewed in April for about 4,800 euros, financed from "
            "the reserve. Community work: 6 hours per plot per year; each hour not worked costs "
            "15 euros. The new treasurer is Dieter Ruppert; Ms Sommer remains chair. Summer "
            "party on 12 July."
        ),
        "changed": (
            "Protokoll der Jahreshauptversammlung Kleingartenverein Am Mühlbach e.V., 8. März, "
            "Vereinsheim: 46 von 112 Mitgliedern anwesend. Beschlossen wurde die Erhöhung des "
            "Jahresbeitrags von 38 auf 52 Euro ab 2026 (31 Ja, 12 Nein, 3 Enthaltungen). Die "
            "Wasserleitung im Weg C wird im April für rund 4.800 Euro erneuert, finanziert aus "
            "der Rücklage. Gemeinschaftsarbeit: 6 Stunden pro Parzelle und Jahr, nicht "
            "geleistete Stunden kosten 15 Euro. Neuer Kassenwart ist Dieter Ruppert, Frau Sommer "
            "bleibt Vorsitzende. Sommerfest am 19. Juli."
        ),
        "sibling": (
            "Parzelle 14 im Kleingartenverein Am Mühlbach: Übernahme vom Vorpächter Herrn Lange "
            "am 1. April, Ablöse für Laube (18 m²), Gewächshaus und Bepflanzung 2.300 Euro laut "
            "Wertschätzung. Pacht 0,42 Euro pro m² bei 380 m². Obstbäume: zwei Apfelbäume "
            "(Boskoop und Topaz) und eine Sauerkirsche. Stromzähler bei Übernahme: 4.812 kWh."
        ),
    },
    {
        "lang": "en",
        "topic": "customer onboarding",
        "title": "Halvorsen Logistics onboarding and contract terms",
        "content": (
            "Customer notes: Halvorsen Logistics AS (Bergen) signed on 3 June for the Pro plan, "
            "120 seats at €19 per seat per month, annual billing, PO number HL-77820. Main "
            "contact: Ingrid Solberg, head of operations; IT contact: Mats Eide. They need SSO "
            "via Azure AD and data residency in the EU (Frankfurt region). Go-live target is 1 "
            "July. They asked for a 10% discount for a two-year commitment; we agreed to 7% if "
            "they sign the extension by 31 August. Invoices go to "
            "invoices@halvorsen-logistics.no, not to Ingrid."
        ),
        "paraphrase": (
            "Halvorsen Logistics AS from Bergen signed up on 3 June: Pro plan, 120 seats, €19 "
            "per seat and month, billed annually, purchase order HL-77820. Ingrid Solberg, their "
            "head of operations, is the main contact; Mats Eide handles IT. Requirements are SSO "
            "through Azure AD and EU data residency in the Frankfurt region. They want to go "
            "live by 1 July. Their ask was 10% off for committing to two years; what we agreed "
            "is 7%, provided the extension is signed by 31 August. Send invoices to "
            "invoices@halvorsen-logistics.no rather than to Ingrid."
        ),
        "translation": (
            "Kundennotiz: Halvorsen Logistics AS (Bergen) hat am 3. Juni für den Pro-Tarif "
            "unterschrieben, 120 Lizenzen zu 19 € pro Lizenz und Monat, jährliche Abrechnung, "
            "Bestellnummer HL-77820. Hauptansprechpartnerin: Ingrid Solberg, Leiterin Betrieb; "
            "IT-Ansprechpartner: Mats Eide. Sie brauchen SSO über Azure AD und Datenhaltung in "
            "der EU (Region Frankfurt). Geplanter Go-live ist der 1. Juli. Sie haben für eine "
            "zweijährige Bindung 10 % Rabatt verlangt; wir haben 7 % zugesagt, wenn sie die "
            "Verlängerung bis zum 31. August unterschreiben. Rechnungen gehen an "
            "invoices@halvorsen-logistics.no, nicht an Ingrid."
        ),
        "changed": (
            "Customer notes: Halvorsen Logistics AS (Bergen) signed on 3 June for the Pro plan, "
            "120 seats at €19 per seat per month, annual billing, PO number HL-77820. Main "
            "contact: Ingrid Solberg, head of operations; IT contact: Mats Eide. They need SSO "
            "via Azure AD and data residency in the EU (Frankfurt region). Go-live target is 15 "
            "July. They asked for a 10% discount for a two-year commitment; we declined, and the "
            "two-year price stays at €19 per seat. Invoices go to "
            "invoices@halvorsen-logistics.no, not to Ingrid."
        ),
        "sibling": (
            "Customer notes: Brennan & Doyle Solicitors (Cork) churned on 28 February after 14 "
            "months on the Team plan with 18 seats. Reason given by office manager Siobhan "
            "Kearney: they moved to Clio because it integrates with their case management. The "
            "outstanding invoice INV-20931 of €342 was paid. She said they might come back if we "
            "add matter-based folders. Win-back reminder set for 1 September."
        ),
    },
    {
        "lang": "de",
        "topic": "server backup",
        "title": "Backup-Konzept Vereinsserver mit restic",
        "content": (
            "Backup-Konzept für den Vereinsserver (Hetzner CX22, Debian 12): restic 0.16 sichert "
            "jede Nacht um 2:30 Uhr /srv/nextcloud und den MariaDB-Dump in ein Repository auf "
            "der Storage Box BX11 in Falkenstein. Aufbewahrung: 7 tägliche, 4 wöchentliche und "
            "12 monatliche Snapshots, danach prune. Das Repository-Passwort liegt im "
            "Vorstandstresor und bei Kassenwartin Petra. Eine Wiederherstellungsprobe wurde "
            "zuletzt am 19. Januar gemacht, Dauer 42 Minuten für 86 GB. Bei Fehlern schickt "
            "healthchecks.io eine Mail an admin@tsv-oberau.de."
        ),
        "paraphrase": (
            "Der Vereinsserver, ein Hetzner CX22 mit Debian 12, wird mit restic 0.16 gesichert: "
            "Jede Nacht um 2:30 Uhr landen /srv/nextcloud und der Dump der MariaDB in einem "
            "Repository auf der Storage Box BX11 in Falkenstein. Behalten werden 12 monatliche, "
            "4 wöchentliche und 7 tägliche Snapshots, alles Ältere entfernt prune. Das Passwort "
            "des Repositorys ist im Tresor des Vorstands hinterlegt und zusätzlich bei Petra, "
            "unserer Kassenwartin. Beim letzten Restore-Test am 19. Januar dauerte es 42 "
            "Minuten, 86 GB zurückzuspielen. Schlägt ein Lauf fehl, meldet healthchecks.io das "
            "per Mail an admin@tsv-oberau.de."
        ),
        "translation": (
            "Backup plan for the club server (Hetzner CX22, Debian 12): restic 0.16 backs up "
            "/srv/nextcloud and the MariaDB dump every night at 2:30 am to a repository on the "
            "BX11 Storage Box in Falkenstein. Retention: 7 daily, 4 weekly and 12 monthly "
            "snapshots, then prune. The repository password is kept in the board's safe and by "
            "the treasurer, Petra. A restore test was last done on 19 January and took 42 "
            "minutes for 86 GB. On failures, healthchecks.io sends an email to "
            "admin@tsv-oberau.de."
        ),
        "changed": (
            "Backup-Konzept für den Vereinsserver (Hetzner CX22, Debian 12): restic 0.16 sichert "
            "jede Nacht um 3:15 Uhr /srv/nextcloud und den MariaDB-Dump in ein Repository auf "
            "der Storage Box BX11 in Falkenstein. Aufbewahrung: 14 tägliche, 4 wöchentliche und "
            "12 monatliche Snapshots, danach prune. Das Repository-Passwort liegt im "
            "Vorstandstresor und bei Kassenwartin Petra. Eine Wiederherstellungsprobe wurde "
            "zuletzt am 19. Januar gemacht, Dauer 42 Minuten für 86 GB. Bei Fehlern schickt "
            "healthchecks.io eine Mail an admin@tsv-oberau.de."
        ),
        "sibling": (
            "Vereinsserver: Nextcloud am 2. August von Version 28 auf 29.0.4 aktualisiert, Dauer "
            "25 Minuten. Danach mussten die Apps Deck und Kalender neu aktiviert werden. PHP "
            "läuft jetzt in Version 8.2, memory_limit auf 1 GB erhöht. Speicherplatz: 118 von "
            "160 GB belegt, das Kontingent pro Abteilung bleibt bei 10 GB."
        ),
    },
    {
        "lang": "en",
        "topic": "passport renewal",
        "title": "Daniel passport renewal before the Spain trip",
        "content": (
            "Passport renewal for Daniel: his current passport 564382917 expires on 2 September, "
            "and Spain needs at least 3 months of validity for the trip on 20 July, so it must "
            "be renewed now. Applied online on 6 April via gov.uk, fee £88.50 paid by debit "
            "card, application reference 2604-1183-7729. The photo code was taken at Boots in "
            "Kingston. The old passport must be posted to the Passport Office in Durham with the "
            "form; use Royal Mail Special Delivery, tracking KS 2841 0093 7GB. Expected "
            "processing time is 3 weeks."
        ),
        "paraphrase": (
            "Daniel's passport (no. 564382917) runs out on 2 September. For our Spain trip on 20 "
            "July he'd need three months of validity left, so renewing can't wait. I did the "
            "online application at gov.uk on 6 April, paid £88.50 by debit card, and got "
            "reference 2604-1183-7729. The digital photo code came from Boots in Kingston. The "
            "old passport goes to the Passport Office in Durham together with the form, sent by "
            "Royal Mail Special Delivery with tracking number KS 2841 0093 7GB. Processing "
            "should take about 3 weeks."
        ),
        "translation": (
            "Passverlängerung für Daniel: Sein aktueller Pass 564382917 läuft am 2. September "
            "ab, und Spanien verlangt für die Reise am 20. Juli noch mindestens 3 Monate "
            "Gültigkeit, also muss er jetzt erneuert werden. Online-Antrag am 6. April über "
            "gov.uk gestellt, Gebühr 88,50 £ per Debitkarte bezahlt, Antragsnummer "
            "2604-1183-7729. Den Fotocode haben wir bei Boots in Kingston machen lassen. Der "
            "alte Pass muss mit dem Formular an das Passport Office in Durham geschickt werden, "
            "per Royal Mail Special Delivery, Sendungsnummer KS 2841 0093 7GB. Die Bearbeitung "
            "dauert voraussichtlich 3 Wochen."
        ),
        "changed": (
            "Passport renewal for Daniel: his current passport 564382917 expires on 2 September, "
            "and Spain needs at least 3 months of validity for the trip on 20 July, so it must "
            "be renewed now. Applied online on 6 April via gov.uk, fee £88.50 paid by debit "
            "card, application reference 2604-1183-7729. The photo code was taken at Boots in "
            "Kingston. The old passport was posted to the Passport Office in Durham with the "
            "form by Royal Mail Special Delivery, tracking KS 2841 0093 7GB. The new passport, "
            "number 571190346, arrived on 24 April."
        ),
        "sibling": (
            "Driving licence address change for Daniel after the move to 14 Elm Grove, Surbiton "
            "on 1 March: done online with the DVLA on 9 March, free of charge. The new photocard "
            "arrived on 17 March; the photocard expires on 11 October 2031. The V5C logbook for "
            "the Corsa was updated at the same time, reference 1172 8849 on the letter."
        ),
    },
    {
        "lang": "en",
        "topic": "incident report",
        "title": "INC-2291 expired CDN certificate postmortem",
        "content": (
            "Incident INC-2291, 23 October: the TLS certificate for static.harbourline.io on the "
            "Fastly CDN expired at 04:12 UTC, so images and JS failed to load for all customers "
            "until 05:37 UTC (85 minutes). Cause: the certificate was issued manually in 2024 "
            "and was not part of our cert-manager automation; the expiry alert went to a shared "
            "inbox nobody reads. Fix: Tomas issued a Let's Encrypt certificate and uploaded it. "
            "Follow-ups: move the domain to Fastly-managed TLS by 6 November (owner Rhea), and "
            "route expiry alerts to PagerDuty 14 days ahead."
        ),
        "paraphrase": (
            "INC-2291 on 23 October: at 04:12 UTC the Fastly-served certificate for "
            "static.harbourline.io ran out, and from then until 05:37 UTC, 85 minutes in total, "
            "no customer could load images or JavaScript. The certificate had been created by "
            "hand in 2024 and never brought under cert-manager, and its expiry warning landed in "
            "a shared mailbox that no one checks. Tomas resolved it by issuing and uploading a "
            "Let's Encrypt certificate. Actions: Rhea moves the domain onto Fastly-managed TLS "
            "by 6 November, and expiry alerts will go to PagerDuty 14 days in advance."
        ),
        "translation": (
            "Incident INC-2291, 23. Oktober: Das TLS-Zertifikat für static.harbourline.io auf "
            "dem Fastly-CDN ist um 04:12 UTC abgelaufen, sodass Bilder und JS für alle Kunden "
            "bis 05:37 UTC (85 Minuten) nicht geladen wurden. Ursache: Das Zertifikat wurde 2024 "
            "manuell ausgestellt und war nicht Teil unserer cert-manager-Automatisierung; die "
            "Ablaufwarnung ging an ein gemeinsames Postfach, das niemand liest. Behebung: Tomas "
            "hat ein Let's-Encrypt-Zertifikat ausgestellt und hochgeladen. Folgeaufgaben: "
            "Umstellung der Domain auf von Fastly verwaltetes TLS bis 6. November (zuständig "
            "Rhea) und Ablaufwarnungen 14 Tage vorher an PagerDuty leiten."
        ),
        "changed": (
            "Incident INC-2291, 23 October: the TLS certificate for static.harbourline.io on the "
            "Fastly CDN expired at 04:12 UTC, so images and JS failed to load for all customers "
            "until 06:49 UTC (157 minutes). Cause: the certificate was issued manually in 2024 "
            "and was not part of our cert-manager automation; the expiry alert went to a shared "
            "inbox nobody reads. Fix: Tomas issued a Let's Encrypt certificate and uploaded it. "
            "Follow-ups: move the domain to Fastly-managed TLS by 20 November (owner Rhea), and "
            "route expiry alerts to PagerDuty 14 days ahead."
        ),
        "sibling": (
            "Incident INC-2304, 2 November: the nightly invoice export job failed because the S3 "
            "bucket policy was tightened in Terraform PR #812 and the job's IAM role lost "
            "s3:PutObject. 214 invoices were exported late, at 09:30 UTC. Fix: role policy "
            "restored, and an integration test for the export role was added to CI. Owner: "
            "Aylin."
        ),
    },
    {
        "lang": "de",
        "topic": "baking recipe",
        "title": "Omas Zwetschgenkuchen vom Blech",
        "content": (
            "Omas Zwetschgenkuchen vom Blech, so wie ihn Tante Gerda 2023 aufgeschrieben hat: "
            "Hefeteig aus 500 g Mehl Type 550, 1 Würfel frischer Hefe (42 g), 250 ml lauwarmer "
            "Milch, 75 g Butter, 60 g Zucker, 1 Ei und einer Prise Salz. 45 Minuten gehen "
            "lassen, dann auf dem gefetteten Blech ausrollen. 2,5 kg Zwetschgen entsteinen, "
            "vierteln und dicht in Reihen setzen. Streusel aus 150 g Mehl, 100 g Butter, 100 g "
            "Zucker und 1 TL Zimt darüber. Bei 180 °C Umluft 35 Minuten backen. Am besten mit "
            "Bühler Zwetschgen Ende August."
        ),
        "paraphrase": (
            "Der Blechkuchen mit Zwetschgen nach Oma, von Tante Gerda 2023 notiert: Für den "
            "Hefeteig 500 g Mehl (Type 550), einen Würfel Frischhefe à 42 g, 250 ml lauwarme "
            "Milch, 75 g Butter, 60 g Zucker, ein Ei und etwas Salz verkneten und 45 Minuten "
            "gehen lassen. Anschließend auf einem gefetteten Backblech ausrollen. Die 2,5 kg "
            "Zwetschgen entkernen, in Viertel schneiden und eng in Reihen auflegen. Für die "
            "Streusel 150 g Mehl, 100 g Butter, 100 g Zucker und einen Teelöffel Zimt verkrümeln "
            "und verteilen. 35 Minuten bei 180 °C Umluft backen. Ideal sind Bühler Zwetschgen, "
            "die es Ende August gibt."
        ),
        "translation": (
            "Grandma's plum sheet cake, as Aunt Gerda wrote it down in 2023: yeast dough made "
            "from 500 g type 550 flour, 1 cube of fresh yeast (42 g), 250 ml lukewarm milk, 75 g "
            "butter, 60 g sugar, 1 egg and a pinch of salt. Let it rise for 45 minutes, then "
            "roll it out on the greased baking tray. Stone 2.5 kg of prune plums, quarter them "
            "and set them close together in rows. Crumble topping of 150 g flour, 100 g butter, "
            "100 g sugar and 1 tsp cinnamon on top. Bake at 180 °C fan for 35 minutes. Best with "
            "Bühler plums at the end of August."
        ),
        "changed": (
            "Omas Zwetschgenkuchen vom Blech, so wie ihn Tante Gerda 2023 aufgeschrieben hat: "
            "Hefeteig aus 500 g Mehl Type 550, 1 Würfel frischer Hefe (42 g), 250 ml lauwarmer "
            "Milch, 75 g Butter, 60 g Zucker, 1 Ei und einer Prise Salz. 45 Minuten gehen "
            "lassen, dann auf dem gefetteten Blech ausrollen. 2,5 kg Zwetschgen entsteinen, "
            "vierteln und dicht in Reihen setzen. Keine Streusel mehr, die sind Gerda zu süß; "
            "stattdessen nach dem Backen 2 EL Zimtzucker darüberstreuen. Bei 200 °C Ober- und "
            "Unterhitze 30 Minuten backen. Am besten mit Bühler Zwetschgen Ende August."
        ),
        "sibling": (
            "Apfelmus eingekocht, Ernte vom 28. September: 12 kg Boskoop vom Baum hinterm Haus "
            "ergaben 14 Gläser à 500 ml. Pro Kilo 50 g Zucker und der Saft einer halben Zitrone, "
            "im Einkochautomaten 30 Minuten bei 90 °C. Die Gläser mit dem blauen Deckel sind "
            "noch von 2024 und müssen zuerst aufgebraucht werden."
        ),
    },
    {
        "lang": "en",
        "topic": "astronomy club",
        "title": "Club Dobsonian WAS-07 loan record",
        "content": (
            "Loan record, Wycombe Astronomical Society: the club's 8-inch Sky-Watcher Skyliner "
            "200P Dobsonian (asset number WAS-07) goes to new member Harriet Cole from 4 "
            "February to 4 March. Deposit of £50 paid in cash to the equipment officer, Graham "
            "Pike. Included: 25 mm and 10 mm eyepieces, red-dot finder, collimation cap and the "
            "book Turn Left at Orion. The primary mirror was collimated on 1 February. Returns "
            "go to the observatory at Downley Common on a Thursday club night after 7:30 pm. "
            "Late returns cost £5 per week."
        ),
        "paraphrase": (
            "From 4 February to 4 March the Wycombe Astronomical Society lends its 8-inch "
            "Dobsonian, the Sky-Watcher Skyliner 200P with asset tag WAS-07, to Harriet Cole, "
            "who joined recently. She gave equipment officer Graham Pike a £50 cash deposit. The "
            "kit comes with 25 mm and 10 mm eyepieces, a red-dot finder, a collimation cap and a "
            "copy of Turn Left at Orion. Its primary mirror was last collimated on 1 February. "
            "Bring it back to the Downley Common observatory on any Thursday club night from "
            "7:30 pm. Each week it is late is charged at £5."
        ),
        "translation": (
            "Ausleihprotokoll der Wycombe Astronomical Society: Das 8-Zoll-Dobson-Teleskop "
            "Sky-Watcher Skyliner 200P des Vereins (Inventarnummer WAS-07) geht vom 4. Februar "
            "bis 4. März an das neue Mitglied Harriet Cole. Pfand von 50 £ in bar an den "
            "Gerätewart Graham Pike gezahlt. Enthalten: Okulare mit 25 mm und 10 mm, "
            "Leuchtpunktsucher, Justierkappe und das Buch Turn Left at Orion. Der Hauptspiegel "
            "wurde am 1. Februar justiert. Rückgabe an der Sternwarte auf dem Downley Common an "
            "einem Donnerstags-Clubabend ab 19:30 Uhr. Verspätete Rückgabe kostet 5 £ pro Woche."
        ),
        "changed": (
            "Loan record, Wycombe Astronomical Society: the club's 8-inch Sky-Watcher Skyliner "
            "200P Dobsonian (asset number WAS-07) goes to new member Owen Blackwood from 11 "
            "March to 8 April. Deposit of £50 paid in cash to the equipment officer, Graham "
            "Pike. Included: 25 mm and 10 mm eyepieces, red-dot finder, collimation cap and the "
            "book Turn Left at Orion. The primary mirror was collimated on 1 February. Returns "
            "go to the observatory at Downley Common on a Thursday club night after 7:30 pm. "
            "Late returns cost £5 per week."
        ),
        "sibling": (
            "Observing night report, 28 January, Downley Common: seeing 3/5, transparency good "
            "until cloud rolled in at 22:40. Jupiter in the 10-inch showed the Great Red Spot "
            "transit at 21:15 and the shadow of Io. Nine members and two visitors from the "
            "Scouts came. The dew heater on the 10-inch failed again; Graham will order a new 12 "
            "V strap for about £35."
        ),
    },
    {
        "lang": "de",
        "topic": "pet health",
        "title": "Bruno Jahresimpfung und Gewicht",
        "content": (
            "Hund Bruno (Labrador, Rüde, geboren 3. Mai 2019, Chipnummer 276098106543217): "
            "Jahresimpfung am 12. März in der Tierarztpraxis Dr. Weinzierl in Dachau, SHPPiL "
            "plus Tollwut, 96 Euro. Gewicht 34,8 kg, Ziel laut Tierärztin 32 kg, daher Futter "
            "auf 330 g Trockenfutter (Josera Balance) pro Tag reduziert. Zahnstein an den "
            "Backenzähnen, eine Zahnsanierung unter Narkose wird für den Herbst empfohlen, "
            "Kostenvoranschlag etwa 450 Euro. Zeckenschutz mit Bravecto, nächste Tablette am 10. "
            "Juni."
        ),
        "paraphrase": (
            "Unser Labrador-Rüde Bruno (geb. am 3. Mai 2019, Chip 276098106543217) war am 12. "
            "März zur jährlichen Impfung bei Dr. Weinzierl in Dachau: SHPPiL und Tollwut für "
            "zusammen 96 Euro. Er wiegt 34,8 kg; die Tierärztin möchte ihn bei 32 kg sehen, "
            "deshalb gibt es jetzt nur noch 330 g Josera Balance Trockenfutter täglich. An den "
            "Backenzähnen sitzt Zahnstein, und sie rät zu einer Zahnsanierung in Narkose im "
            "Herbst, geschätzt rund 450 Euro. Gegen Zecken bekommt er Bravecto; die nächste "
            "Tablette ist am 10. Juni dran."
        ),
        "translation": (
            "Dog Bruno (Labrador, male, born 3 May 2019, microchip 276098106543217): annual "
            "vaccination on 12 March at Dr Weinzierl's veterinary practice in Dachau, DHPPiL "
            "plus rabies, 96 euros. Weight 34.8 kg, target according to the vet 32 kg, so his "
            "food has been reduced to 330 g of dry food (Josera Balance) per day. Tartar on the "
            "molars; a dental cleaning under anaesthesia is recommended for the autumn, estimate "
            "about 450 euros. Tick protection with Bravecto, next tablet on 10 June."
        ),
        "changed": (
            "Hund Bruno (Labrador, Rüde, geboren 3. Mai 2019, Chipnummer 276098106543217): "
            "Jahresimpfung am 12. März in der Tierarztpraxis Dr. Weinzierl in Dachau, SHPPiL "
            "plus Tollwut, 96 Euro. Gewicht 34,8 kg, Ziel laut Tierärztin 32 kg, daher Futter "
            "auf 330 g Trockenfutter (Josera Balance) pro Tag reduziert. Nur leichter Zahnstein "
            "an den Backenzähnen, eine Zahnsanierung unter Narkose hält die Tierärztin vorerst "
            "nicht für nötig, Kontrolle bei der nächsten Impfung. Zeckenschutz mit Bravecto, "
            "nächste Tablette am 10. Juni."
        ),
        "sibling": (
            "Hundehaftpflicht für Bruno bei der Uelzener, Vertrag HH-5510872: Deckungssumme 10 "
            "Mio. Euro, Jahresbeitrag 71,40 Euro, keine Selbstbeteiligung, Mietsachschäden "
            "mitversichert. Die Hundesteuer in Dachau beträgt 75 Euro pro Jahr, Steuermarke "
            "Nummer 1184; der Bescheid kommt immer im Februar und wird abgebucht."
        ),
    },
    {
        "lang": "en",
        "topic": "woodworking",
        "title": "Roubo workbench build plan",
        "content": (
            "Workbench build, Roubo-style, for the garage: the top is 1,830 x 560 x 75 mm, "
            "laminated from 14 strips of kiln-dried ash bought at Hadley Timber on 9 September "
            "(£318 incl. cutting). Legs 100 x 100 mm, stretchers 75 x 50 mm, all joints "
            "drawbored with 10 mm oak pegs. Height 860 mm, set to my wrist height. Vices: a "
            "Benchcrafted-style leg vice with a 1-inch screw on the left, a planing stop on the "
            "right. Finish: three coats of Osmo Polyx 3032 satin, 12 hours between coats. "
            "Glue-up of the top needs two people and all 8 sash clamps."
        ),
        "paraphrase": (
            "Plan for the Roubo-type bench in the garage. The 1,830 x 560 x 75 mm top is made of "
            "14 laminated strips of kiln-dried ash, bought from Hadley Timber on 9 September for "
            "£318, cutting included. Legs are 100 x 100 mm and stretchers 75 x 50 mm, every "
            "joint drawbored with 10 mm oak pegs. At 860 mm the height matches my wrist. On the "
            "left goes a leg vice in the Benchcrafted style with a 1-inch screw; on the right a "
            "planing stop. It gets three coats of Osmo Polyx 3032 satin, with 12 hours of drying "
            "between each. Gluing up the top takes two people and every one of the 8 sash "
            "clamps."
        ),
        "translation": (
            "Bau einer Hobelbank im Roubo-Stil für die Garage: Die Platte misst 1.830 x 560 x 75 "
            "mm und ist aus 14 Streifen kammergetrockneter Esche verleimt, gekauft bei Hadley "
            "Timber am 9. September (318 £ inkl. Zuschnitt). Beine 100 x 100 mm, Traversen 75 x "
            "50 mm, alle Zapfen mit 10-mm-Eichennägeln im Drawbore-Verfahren gesichert. Höhe 860 "
            "mm, passend zu meiner Handgelenkhöhe. Zangen: links eine Beinzange im "
            "Benchcrafted-Stil mit 1-Zoll-Spindel, rechts ein Hobelanschlag. Oberfläche: drei "
            "Schichten Osmo Polyx 3032 seidenmatt, jeweils 12 Stunden Trockenzeit. Zum Verleimen "
            "der Platte braucht man zwei Personen und alle 8 Stangenzwingen."
        ),
        "changed": (
            "Workbench build, Roubo-style, for the garage: the top is 1,830 x 560 x 75 mm, "
            "laminated from 14 strips of kiln-dried beech bought at Hadley Timber on 9 September "
            "(£318 incl. cutting). Legs 100 x 100 mm, stretchers 75 x 50 mm, all joints "
            "drawbored with 10 mm oak pegs. Height 910 mm, set to my wrist height. Vices: a "
            "Benchcrafted-style leg vice with a 1-inch screw on the left, a planing stop on the "
            "right. Finish: three coats of Osmo Polyx 3032 satin, 12 hours between coats. "
            "Glue-up of the top needs two people and all 8 sash clamps."
        ),
        "sibling": (
            "Sharpening setup in the garage: Shapton Glass stones in 500, 1,000 and 4,000 grit, "
            "flattened on the Atoma 140 diamond plate every third session. The honing guide is a "
            "Veritas Mk.II; primary bevel 25°, microbevel 30° for chisels and 27° for plane "
            "irons. The stones are stored dry. Next purchase: a 16,000 grit stone, around £95."
        ),
    },
    {
        "lang": "en",
        "topic": "feature rollout",
        "title": "checkout_v2 rollout decision",
        "content": (
            "Product/eng decision, 4 April: the new checkout flow (flag checkout_v2 in "
            "LaunchDarkly) goes to 10% of web traffic on 8 April, then to 50% on 15 April if "
            "conversion is within 1 percentage point of the old flow and the p95 page load stays "
            "under 1.8 seconds. Mobile apps stay on the old flow until app version 6.4 ships. "
            "The payment provider stays Adyen; Klarna is only offered above €50. Kill switch "
            "owner is Benedikt, backup Sara. The old flow's code is removed no earlier than 30 "
            "days after reaching 100%."
        ),
        "paraphrase": (
            "On 4 April product and engineering agreed the rollout of checkout_v2, the "
            "LaunchDarkly flag for the new checkout. It starts at 10% of web traffic on 8 April. "
            "Provided conversion is no more than 1 percentage point off the old flow and p95 "
            "load time remains below 1.8 seconds, it moves to 50% on 15 April. The mobile apps "
            "keep the old flow until release 6.4 is out. Adyen remains the payment provider, and "
            "Klarna appears only for baskets over €50. Benedikt holds the kill switch, with Sara "
            "as backup. Nobody deletes the old code until 30 days after reaching 100%."
        ),
        "translation": (
            "Produkt-/Entwicklungsentscheidung vom 4. April: Der neue Checkout (Flag checkout_v2 "
            "in LaunchDarkly) geht am 8. April an 10 % des Web-Traffics und am 15. April an 50 "
            "%, sofern die Conversion höchstens 1 Prozentpunkt vom alten Ablauf abweicht und die "
            "p95-Ladezeit unter 1,8 Sekunden bleibt. Die Mobile-Apps bleiben beim alten Ablauf, "
            "bis App-Version 6.4 erscheint. Zahlungsanbieter bleibt Adyen; Klarna wird nur ab 50 "
            "€ angeboten. Zuständig für den Kill Switch ist Benedikt, Vertretung Sara. Der Code "
            "des alten Ablaufs wird frühestens 30 Tage nach Erreichen von 100 % entfernt."
        ),
        "changed": (
            "Product/eng decision, 16 April: the new checkout flow (flag checkout_v2 in "
            "LaunchDarkly) stays paused at 10% of web traffic; it did not go to 50% on 15 April "
            "because conversion was 2.3 percentage points below the old flow, although the p95 "
            "page load stayed under 1.8 seconds. Mobile apps stay on the old flow until app "
            "version 6.4 ships. The payment provider stays Adyen; Klarna is only offered above "
            "€50. Kill switch owner is Benedikt, backup Sara. The old flow's code is removed no "
            "earlier than 30 days after reaching 100%."
        ),
        "sibling": (
            "Analytics note: from 1 May we stop sending events to Mixpanel and use PostHog Cloud "
            "EU instead. The Mixpanel contract ends on 31 May, saving €1,150 a month against "
            "roughly €400 for PostHog. Leonie rebuilt the funnel, retention and checkout "
            "dashboards; the old ones stay readable until 30 June. Event names keep the "
            "snake_case scheme."
        ),
    },
    {
        "lang": "de",
        "topic": "mountain hiking",
        "title": "Hüttentour Stubaier Höhenweg im August",
        "content": (
            "Hüttentour Stubaier Höhenweg, 2. bis 7. August, zu viert (Anna, Felix, Mareike und "
            "ich): Start in Neustift, erste Nacht auf der Starkenburger Hütte, dann "
            "Franz-Senn-Hütte, Neue Regensburger Hütte, Dresdner Hütte und Sulzenauhütte. Alle "
            "Lager sind reserviert, Anzahlung 20 Euro pro Person und Hütte; mit "
            "Alpenvereinsausweis kostet das Lager ab 18 Euro. Längste Etappe am 5. August, 8 "
            "Stunden und 1.100 Höhenmeter. Rucksack maximal 9 kg, Hüttenschlafsack ist Pflicht. "
            "Anreise mit dem Zug bis Innsbruck, dann Bus 590 um 8:05 Uhr."
        ),
        "paraphrase": (
            "Vom 2. bis 7. August gehen wir zu viert, also Anna, Felix, Mareike und ich, auf den "
            "Stubaier Höhenweg. Los geht es in Neustift; übernachtet wird der Reihe nach auf "
            "Starkenburger Hütte, Franz-Senn-Hütte, Neuer Regensburger Hütte, Dresdner Hütte und "
            "Sulzenauhütte. Für alle Hütten sind Lagerplätze gebucht, angezahlt sind je Person "
            "und Hütte 20 Euro; Alpenvereinsmitglieder zahlen im Lager ab 18 Euro. Die härteste "
            "Etappe kommt am 5. August mit 8 Stunden Gehzeit und 1.100 Höhenmetern. Mehr als 9 "
            "kg sollte kein Rucksack wiegen, ein Hüttenschlafsack ist vorgeschrieben. Wir fahren "
            "mit dem Zug nach Innsbruck und nehmen dort den Bus 590 um 8:05 Uhr."
        ),
        "translation": (
            "Hut-to-hut hike on the Stubai High Trail, 2 to 7 August, four of us (Anna, Felix, "
            "Mareike and me): start in Neustift, first night at the Starkenburger Hütte, then "
            "Franz-Senn-Hütte, Neue Regensburger Hütte, Dresdner Hütte and Sulzenauhütte. All "
            "dormitory places are reserved, with a deposit of 20 euros per person and hut; with "
            "an Alpine Club card a dormitory bed costs from 18 euros. Longest stage on 5 August, "
            "8 hours and 1,100 metres of ascent. Backpack 9 kg at most; a hut sleeping bag is "
            "compulsory. Travel by train to Innsbruck, then bus 590 at 8:05 am."
        ),
        "changed": (
            "Hüttentour Stubaier Höhenweg, 9. bis 14. August, zu viert (Anna, Felix, Mareike und "
            "ich): Start in Neustift, erste Nacht auf der Starkenburger Hütte, dann "
            "Franz-Senn-Hütte, Neue Regensburger Hütte, Dresdner Hütte und Sulzenauhütte. Alle "
            "Lager sind reserviert, Anzahlung 20 Euro pro Person und Hütte; mit "
            "Alpenvereinsausweis kostet das Lager ab 18 Euro. Längste Etappe am 12. August, 8 "
            "Stunden und 1.100 Höhenmeter. Rucksack maximal 9 kg, Hüttenschlafsack ist Pflicht. "
            "Anreise mit dem Zug bis Innsbruck, dann Bus 590 um 7:35 Uhr."
        ),
        "sibling": (
            "Ausrüstung für das Klettersteig-Wochenende an der Zugspitze: Klettersteigset mit "
            "Falldämpfer nach EN 958 (meins ist von 2016 und wird durch ein Edelrid Cable Kit "
            "6.0 für 109 Euro ersetzt), Helm, Handschuhe und Stirnlampe. Treffpunkt am 20. Juni "
            "um 6 Uhr am Parkplatz Hammersbach. Die Wetterentscheidung fällt am Vorabend um 18 "
            "Uhr in der WhatsApp-Gruppe."
        ),
    },
    {
        "lang": "en",
        "topic": "aquarium keeping",
        "title": "Aquarium water test and maintenance log",
        "content": (
            "Aquarium log, 120-litre planted tank in the living room: water test on 2 June with "
            "the JBL ProAquaTest kit showed ammonia 0, nitrite 0, nitrate 25 mg/l, pH 7.2, GH 8, "
            "KH 4, temperature 25 °C. Stock: 12 harlequin rasboras, 6 panda corydoras, 1 honey "
            "gourami and about 20 cherry shrimp. Weekly water change of 30% with Seachem Prime; "
            "the filter (Eheim Classic 250) is rinsed in tank water every 6 weeks, last on 19 "
            "May. Algae on the anubias leaves, so the light was cut from 8 to 7 hours. Next: add "
            "3 Amano shrimp."
        ),
        "paraphrase": (
            "120-litre planted aquarium in the living room. Tested on 2 June using the JBL "
            "ProAquaTest set: ammonia and nitrite both 0, nitrate 25 mg/l, pH 7.2, GH 8 and KH "
            "4, at 25 °C. Inhabitants are 12 harlequin rasboras, 6 panda corys, one honey "
            "gourami and roughly 20 cherry shrimp. Each week 30% of the water is replaced, "
            "treated with Seachem Prime; the Eheim Classic 250 filter gets rinsed in old tank "
            "water every 6 weeks, most recently on 19 May. Because algae is growing on the "
            "anubias, the lighting period went down from 8 hours to 7. Plan: 3 Amano shrimp to "
            "be added."
        ),
        "translation": (
            "Aquarium-Protokoll, 120-Liter-Pflanzenbecken im Wohnzimmer: Der Wassertest am 2. "
            "Juni mit dem JBL-ProAquaTest-Set ergab Ammoniak 0, Nitrit 0, Nitrat 25 mg/l, pH "
            "7,2, GH 8, KH 4, Temperatur 25 °C. Besatz: 12 Keilfleckbärblinge, 6 "
            "Panda-Panzerwelse, 1 Honigfadenfisch und etwa 20 Red-Cherry-Garnelen. Wöchentlicher "
            "Wasserwechsel von 30 % mit Seachem Prime; der Filter (Eheim Classic 250) wird alle "
            "6 Wochen in Aquarienwasser ausgespült, zuletzt am 19. Mai. Algen auf den "
            "Anubias-Blättern, deshalb wurde die Beleuchtung von 8 auf 7 Stunden gekürzt. Als "
            "Nächstes: 3 Amanogarnelen einsetzen."
        ),
        "changed": (
            "Aquarium log, 120-litre planted tank in the living room: water test on 2 June with "
            "the JBL ProAquaTest kit showed ammonia 0, nitrite 0.3 mg/l, nitrate 25 mg/l, pH "
            "7.2, GH 8, KH 4, temperature 25 °C. Stock: 12 harlequin rasboras, 6 panda "
            "corydoras, 1 honey gourami and about 20 cherry shrimp. Weekly water change of 30% "
            "with Seachem Prime; the filter (Eheim Classic 250) is rinsed in tank water every 6 "
            "weeks, last on 19 May. Algae on the anubias leaves, so the light was cut from 8 to "
            "7 hours. Next: no new animals until nitrite is back to 0, testing daily."
        ),
        "sibling": (
            "Pond pump replacement: the old Oase Aquamax 4000 stopped on 30 April after 9 years. "
            "Replaced it with an Oase Aquamax Eco Premium 6000 from the garden centre for £214; "
            "it draws 45 W instead of 80 W. The 11 W bulb in the UV clarifier was swapped at the "
            "same time. All 7 goldfish and the two orfe are fine."
        ),
    },
    {
        "lang": "de",
        "topic": "flat handover",
        "title": "Wohnungsübergabe Lindwurmstraße und Kaution",
        "content": (
            "Wohnungsübergabe Lindwurmstraße 88, 3. OG links, an den Vermieter Herrn Dr. Achatz "
            "am 30. September um 10 Uhr: alle 5 Schlüssel zurückgegeben (2 Haustür, 2 Wohnung, 1 "
            "Briefkasten). Zählerstände: Strom 48.213 kWh, Heizkostenverteiler im Wohnzimmer 312 "
            "Einheiten, Kaltwasser 214,6 m³. Beanstandet wurde nur ein Bohrloch zu viel in einer "
            "Küchenfliese; dafür werden 40 Euro von der Kaution einbehalten. Kaution 2.550 Euro "
            "plus Zinsen, Rückzahlung zugesagt bis 31. Dezember auf das Konto bei der "
            "Sparda-Bank. Protokoll von beiden unterschrieben, Kopie im Ordner Wohnung."
        ),
        "paraphrase": (
            "Am 30. September um 10 Uhr haben wir die Wohnung in der Lindwurmstraße 88 (3. Stock "
            "links) an Herrn Dr. Achatz übergeben. Er hat alle fünf Schlüssel bekommen: zwei für "
            "die Haustür, zwei für die Wohnung, einen für den Briefkasten. Abgelesen wurden "
            "48.213 kWh Strom, 312 Einheiten am Heizkostenverteiler im Wohnzimmer und 214,6 m³ "
            "Kaltwasser. Bemängelt hat er lediglich ein überzähliges Bohrloch in einer "
            "Küchenfliese, wofür er 40 Euro der Kaution behält. Die 2.550 Euro Kaution samt "
            "Zinsen will er bis zum 31. Dezember auf unser Sparda-Konto zurücküberweisen. Beide "
            "Seiten haben das Protokoll unterschrieben; eine Kopie steckt im Ordner Wohnung."
        ),
        "translation": (
            "Handover of the flat at Lindwurmstraße 88, 3rd floor left, to the landlord Dr "
            "Achatz on 30 September at 10 am: all 5 keys returned (2 front door, 2 flat, 1 "
            "letterbox). Meter readings: electricity 48,213 kWh, heat cost allocator in the "
            "living room 312 units, cold water 214.6 m³. The only complaint was one extra drill "
            "hole in a kitchen tile; 40 euros will be withheld from the deposit for it. Deposit "
            "2,550 euros plus interest, repayment promised by 31 December to the account at "
            "Sparda-Bank. Report signed by both parties, copy in the folder Wohnung."
        ),
        "changed": (
            "Wohnungsübergabe Lindwurmstraße 88, 3. OG links, an den Vermieter Herrn Dr. Achatz "
            "am 30. September um 10 Uhr: alle 5 Schlüssel zurückgegeben (2 Haustür, 2 Wohnung, 1 "
            "Briefkasten). Zählerstände: Strom 48.213 kWh, Heizkostenverteiler im Wohnzimmer 312 "
            "Einheiten, Kaltwasser 214,6 m³. Beanstandet wurde nur ein Bohrloch zu viel in einer "
            "Küchenfliese; dafür werden 180 Euro von der Kaution einbehalten. Kaution 2.550 Euro "
            "plus Zinsen, Rückzahlung zugesagt bis 31. März auf das Konto bei der Sparda-Bank. "
            "Protokoll von beiden unterschrieben, Kopie im Ordner Wohnung."
        ),
        "sibling": (
            "Neuer Mietvertrag Gollierstraße 12, 2. OG, ab 1. Oktober: Kaltmiete 1.340 Euro, "
            "Nebenkostenvorauszahlung 260 Euro, Indexmiete gekoppelt an den "
            "Verbraucherpreisindex, frühestens nach 12 Monaten anpassbar. Kaution drei "
            "Nettokaltmieten, also 4.020 Euro, auf einem Mietkautionskonto bei der "
            "Stadtsparkasse. Vermieterin ist Frau Hollerith, verwaltet von der Hausverwaltung "
            "Isarblick."
        ),
    },
    {
        "lang": "en",
        "topic": "home brewing",
        "title": "Brew log batch 31 Best Bitter",
        "content": (
            "Brew log, batch 31 (Best Bitter), brewed 17 February: 4.2 kg Maris Otter, 250 g "
            "crystal 60L and 100 g torrefied wheat, mashed at 66 °C for 60 minutes. Hops: 30 g "
            "East Kent Goldings at 60 min, 20 g Fuggles at 15 min, 20 g EKG at flame-out. Yeast: "
            "Lallemand London ESB, pitched at 19 °C. Original gravity 1.042, 21 litres into the "
            "fermenter. Target FG 1.010 for about 4.2% ABV. Plan: bottle on 3 March with 110 g "
            "dextrose for 2.0 volumes, then condition 2 weeks at room temperature for the Fox & "
            "Hounds homebrew night on 29 March."
        ),
        "paraphrase": (
            "Batch 31, a Best Bitter, went in on 17 February. The grain bill was 4.2 kg of Maris "
            "Otter, 250 g of crystal 60L and 100 g of torrefied wheat, mashed 60 minutes at 66 "
            "°C. Hopping: East Kent Goldings 30 g at 60 minutes, Fuggles 20 g at 15 minutes, and "
            "another 20 g of EKG at flame-out. Pitched Lallemand London ESB at 19 °C. I got 21 "
            "litres into the fermenter at an OG of 1.042; aiming for an FG of 1.010, which gives "
            "roughly 4.2% ABV. It gets bottled on 3 March with 110 g of dextrose for 2.0 volumes "
            "and left 2 weeks at room temperature, ready for the homebrew night at the Fox & "
            "Hounds on 29 March."
        ),
        "translation": (
            "Brauprotokoll, Sud 31 (Best Bitter), gebraut am 17. Februar: 4,2 kg Maris Otter, "
            "250 g Karamellmalz 60L und 100 g gepuffter Weizen, 60 Minuten bei 66 °C gemaischt. "
            "Hopfen: 30 g East Kent Goldings bei 60 Minuten, 20 g Fuggles bei 15 Minuten, 20 g "
            "EKG zum Kochende. Hefe: Lallemand London ESB, bei 19 °C angestellt. Anfangsdichte "
            "1,042, 21 Liter in den Gärbehälter. Ziel-Restdichte 1,010 für etwa 4,2 % Alkohol. "
            "Plan: am 3. März mit 110 g Traubenzucker für 2,0 Volumen CO2 abfüllen, dann 2 "
            "Wochen bei Zimmertemperatur reifen lassen, rechtzeitig zum Hausbrauerabend im Fox & "
            "Hounds am 29. März."
        ),
        "changed": (
            "Brew log, batch 31 (Best Bitter), brewed 17 February: 4.2 kg Maris Otter, 250 g "
            "crystal 60L and 100 g torrefied wheat, mashed at 66 °C for 60 minutes. Hops: 30 g "
            "East Kent Goldings at 60 min, 20 g Fuggles at 15 min, 20 g EKG at flame-out. Yeast: "
            "Lallemand London ESB, pitched at 19 °C. Original gravity 1.042, 21 litres into the "
            "fermenter. Target FG 1.010 for about 4.2% ABV. Gravity stalled at 1.018 on 3 March, "
            "so it was not bottled; warmed to 21 °C and roused, then kegged on 10 March, too "
            "late for the Fox & Hounds homebrew night on 29 March."
        ),
        "sibling": (
            "Brewing kit upgrade: bought a Brewzilla 35 L Gen 4 from The Malt Miller on 6 "
            "January for £389 to replace the old Peco boiler. The 1,900 W element takes about 40 "
            "minutes to get from 15 °C to the 66 °C strike temperature. Kept the counterflow "
            "chiller. The first brew on it will be batch 30, a Czech pilsner with Saaz."
        ),
    },
    {
        "lang": "en",
        "topic": "bicycle maintenance",
        "title": "Kona Sutra chain and cassette replacement",
        "content": (
            "Bike maintenance, Kona Sutra touring bike: the chain checker showed 0.75% wear on "
            "14 April at 4,870 km, so I replaced the chain with a Shimano CN-HG601 11-speed (116 "
            "links, £32 from Halfords) and the cassette with a Deore CS-M5100 11-51T (£48) "
            "because the 17T cog was skipping. Cleaned the chainrings, both still fine. Tyres "
            "are Schwalbe Marathon Plus 700x38C, pressure 60 psi front, 70 psi rear. Still to "
            "check: brake pads (TRP Spyre, pads at 1.5 mm) before the Welsh trip on 3 May, and "
            "true the rear wheel."
        ),
        "paraphrase": (
            "On 14 April, with 4,870 km on the Kona Sutra, the chain checker read 0.75%. I "
            "fitted a new 11-speed Shimano CN-HG601 chain at 116 links (£32, Halfords) and, "
            "since the 17-tooth cog kept skipping, a new Deore CS-M5100 11-51T cassette too "
            "(£48). The chainrings got a clean and don't need replacing. Tyres: Schwalbe "
            "Marathon Plus in 700x38C, 60 psi at the front and 70 psi at the back. Still to do "
            "before the Wales trip on 3 May: the TRP Spyre brake pads are down to 1.5 mm, and "
            "the rear wheel needs truing."
        ),
        "translation": (
            "Fahrradwartung, Reiserad Kona Sutra: Die Kettenlehre zeigte am 14. April bei 4.870 "
            "km 0,75 % Verschleiß, daher habe ich die Kette durch eine Shimano CN-HG601 11-fach "
            "ersetzt (116 Glieder, 32 £ bei Halfords) und die Kassette durch eine Deore CS-M5100 "
            "11-51 (48 £), weil das 17er-Ritzel übergesprungen ist. Kettenblätter gereinigt, "
            "beide noch in Ordnung. Reifen sind Schwalbe Marathon Plus 700x38C, Druck vorne 60 "
            "psi, hinten 70 psi. Noch zu prüfen: Bremsbeläge (TRP Spyre, Beläge bei 1,5 mm) vor "
            "der Wales-Tour am 3. Mai, und das Hinterrad zentrieren."
        ),
        "changed": (
            "Bike maintenance, Kona Sutra touring bike: the chain checker showed 0.75% wear on "
            "14 April at 5,310 km, so I replaced the chain with a Shimano CN-HG601 11-speed (116 "
            "links, £32 from Halfords) and the cassette with a Deore CS-M5100 11-51T (£48) "
            "because the 17T cog was skipping. Cleaned the chainrings, both still fine. Tyres "
            "are Schwalbe Marathon Plus 700x38C, pressure 60 psi front, 70 psi rear. Still to "
            "check: brake pads (TRP Spyre, pads at 1.5 mm) before the Welsh trip on 17 May, and "
            "true the rear wheel."
        ),
        "sibling": (
            "Commuting bike, a Brompton C Line, was stolen outside Surbiton station on 22 "
            "January despite the D-lock. Frame number 2207193894, bought in 2022 for £1,275. "
            "Police crime reference 01/9910/26; it is also registered on BikeRegister. Home "
            "insurance with Aviva covers bikes away from home up to £1,500 with a £100 excess; "
            "claim submitted on 24 January."
        ),
    },
    {
        "lang": "de",
        "topic": "ci infrastructure",
        "title": "Eigene GitLab-Runner für lagerwelt",
        "content": (
            "Entscheidung Teamrunde 11. Juni: Die GitLab-CI-Pipelines für das Projekt lagerwelt "
            "laufen ab 1. Juli nicht mehr auf den Shared Runnern, sondern auf zwei eigenen "
            "Runnern (GitLab Runner 17.0, Docker-Executor) auf den Hetzner-Maschinen ci-01 und "
            "ci-02 mit je 8 vCPU. Grund: Die Wartezeit lag im Mai im Schnitt bei 11 Minuten, und "
            "das Minutenkontingent von 10.000 war am 24. Mai aufgebraucht. Caches kommen in "
            "einen MinIO-Bucket. Zuständig ist Jana, Vertretung Ole. Die Kosten von etwa 70 Euro "
            "im Monat trägt die Kostenstelle IT-204."
        ),
        "paraphrase": (
            "In der Teamrunde am 11. Juni haben wir beschlossen, dass lagerwelt ab dem 1. Juli "
            "eigene GitLab-Runner bekommt statt der Shared Runner. Es werden zwei sein, GitLab "
            "Runner 17.0 mit Docker-Executor, auf den Hetzner-Servern ci-01 und ci-02, beide mit "
            "8 vCPU. Der Anlass: Im Mai mussten Jobs durchschnittlich 11 Minuten warten, und "
            "schon am 24. Mai waren die 10.000 Minuten des Kontingents verbraucht. Für die "
            "Caches nutzen wir einen MinIO-Bucket. Jana kümmert sich darum, Ole vertritt sie. "
            "Rund 70 Euro monatlich gehen auf die Kostenstelle IT-204."
        ),
        "translation": (
            "Decision from the team meeting on 11 June: from 1 July, the GitLab CI pipelines for "
            "the lagerwelt project no longer run on the shared runners but on two dedicated "
            "runners (GitLab Runner 17.0, Docker executor) on the Hetzner machines ci-01 and "
            "ci-02 with 8 vCPUs each. Reason: the average wait time in May was 11 minutes, and "
            "the quota of 10,000 minutes was used up on 24 May. Caches go into a MinIO bucket. "
            "Jana is responsible, with Ole as deputy. The costs of about 70 euros a month are "
            "charged to cost centre IT-204."
        ),
        "changed": (
            "Entscheidung Teamrunde 11. Juni: Die GitLab-CI-Pipelines für das Projekt lagerwelt "
            "bleiben auf den Shared Runnern; statt eigener Runner auf ci-01 und ci-02 kaufen wir "
            "ab 1. Juli 20.000 zusätzliche Minuten pro Monat. Grund: Die Wartezeit lag im Mai im "
            "Schnitt bei 11 Minuten, und das Minutenkontingent von 10.000 war am 24. Mai "
            "aufgebraucht, aber eigene Maschinen will niemand warten. Zuständig ist Jana, "
            "Vertretung Ole. Die Kosten von etwa 90 Euro im Monat trägt die Kostenstelle IT-204."
        ),
        "sibling": (
            "Projekt lagerwelt: Umstellung von Python 3.10 auf 3.12 am 3. September "
            "abgeschlossen. Zwei Abhängigkeiten mussten ersetzt werden (aioredis durch redis-py "
            "5.0, nose durch pytest 8). Die Testlaufzeit sank von 14 auf 9 Minuten. Das "
            "Docker-Basisimage ist jetzt python:3.12-slim-bookworm. Offen sind noch "
            "Deprecation-Warnungen aus SQLAlchemy 1.4, Ticket LW-388."
        ),
    },
    {
        "lang": "en",
        "topic": "chess club",
        "title": "Spring Rapid chess tournament details",
        "content": (
            "Chess club: the Spring Rapid at the Crown Hotel, Harrogate, is on Saturday 26 "
            "April, 5 rounds Swiss, 25 minutes plus 10 seconds per move, first round at 10:00. "
            "Entry £15, juniors £8, deadline 19 April via the club website. Prize fund £300: "
            "first £120, second £70, best under-1600 £50, best junior £60. ECF rapid-rated. The "
            "arbiter is Colin Marsh; bring your own clocks and sets, as we have only 14 DGT "
            "clocks. Parking at the Crown costs £6 for the day. Rebecca is doing the pairings in "
            "Swiss Manager."
        ),
        "paraphrase": (
            "The club's Spring Rapid takes place on Saturday 26 April at the Crown Hotel in "
            "Harrogate: five rounds, Swiss system, time control 25 minutes with a 10-second "
            "increment, round one starting at 10:00. Adults pay £15 and juniors £8; enter on the "
            "club website by 19 April. From the £300 prize fund, the winner gets £120, second "
            "place £70, the best player under 1600 £50 and the top junior £60. Games count for "
            "ECF rapid ratings. Colin Marsh is arbiting. The club owns only 14 DGT clocks, so "
            "players should bring sets and clocks. A day's parking at the Crown is £6. Rebecca "
            "will do the pairings with Swiss Manager."
        ),
        "translation": (
            "Schachverein: Das Frühjahrs-Schnellschachturnier im Crown Hotel in Harrogate findet "
            "am Samstag, 26. April statt, 5 Runden Schweizer System, 25 Minuten plus 10 Sekunden "
            "pro Zug, erste Runde um 10:00 Uhr. Startgeld 15 £, Jugendliche 8 £, Meldeschluss "
            "19. April über die Vereinswebsite. Preisfonds 300 £: Erster 120 £, Zweiter 70 £, "
            "bester Spieler unter 1600 50 £, bester Jugendlicher 60 £. ECF-Schnellschachwertung. "
            "Schiedsrichter ist Colin Marsh; bitte eigene Uhren und Bretter mitbringen, da wir "
            "nur 14 DGT-Uhren haben. Parken am Crown kostet 6 £ für den Tag. Rebecca macht die "
            "Paarungen in Swiss Manager."
        ),
        "changed": (
            "Chess club: the Spring Rapid at the Crown Hotel, Harrogate, is on Saturday 10 May, "
            "5 rounds Swiss, 25 minutes plus 10 seconds per move, first round at 10:00. Entry "
            "£18, juniors £8, deadline 19 April via the club website. Prize fund £300: first "
            "£120, second £70, best under-1600 £50, best junior £60. ECF rapid-rated. The "
            "arbiter is Colin Marsh; bring your own clocks and sets, as we have only 14 DGT "
            "clocks. Parking at the Crown costs £6 for the day. Rebecca is doing the pairings in "
            "Swiss Manager."
        ),
        "sibling": (
            "Chess league result, 11 March: Harrogate A lost 2.5-3.5 away at Ilkley in Division "
            "1 of the Yorkshire League. Priyesh won on board 1 and Colin drew on board 4; boards "
            "2, 3 and 6 were lost on time in the endgame. We are now 5th of 8 with 7 match "
            "points. The next match is at home against Leeds Central on 25 March at 7:30 pm."
        ),
    },
    {
        "lang": "de",
        "topic": "solar power",
        "title": "PV-Anlage Süddach: Inbetriebnahme und erste Daten",
        "content": (
            "Photovoltaikanlage auf dem Süddach, in Betrieb seit 14. Juni: 22 Module Aiko "
            "Neostar 450 W, zusammen 9,9 kWp, Wechselrichter Fronius Symo GEN24 10.0, Speicher "
            "BYD HVS 7,7 kWh. Installiert von Solarbau Reiter für 18.940 Euro, 0 % "
            "Mehrwertsteuer. Einspeisevergütung 8,03 Cent pro kWh bei Teileinspeisung, Anmeldung "
            "im Marktstammdatenregister am 20. Juni erledigt (SEE-Nummer SEE912345678). Erster "
            "voller Monat Juli: 1.312 kWh erzeugt, 71 % Eigenverbrauch. Die Wallbox folgt im "
            "Herbst, Budget 1.500 Euro."
        ),
        "paraphrase": (
            "Seit dem 14. Juni läuft die PV-Anlage auf der Südseite des Dachs. Sie besteht aus "
            "22 Modulen Aiko Neostar mit je 450 W, also 9,9 kWp, dazu ein Fronius Symo GEN24 "
            "10.0 als Wechselrichter und ein BYD-HVS-Speicher mit 7,7 kWh. Montiert hat Solarbau "
            "Reiter für 18.940 Euro, bei 0 % Mehrwertsteuer. Für den eingespeisten Überschuss "
            "gibt es 8,03 Cent je kWh. Die Eintragung ins Marktstammdatenregister ist seit dem "
            "20. Juni erledigt, SEE-Nummer SEE912345678. Im Juli, dem ersten kompletten Monat, "
            "kamen 1.312 kWh zusammen, davon 71 % selbst verbraucht. Im Herbst kommt noch eine "
            "Wallbox für bis zu 1.500 Euro dazu."
        ),
        "translation": (
            "Photovoltaic system on the south roof, in operation since 14 June: 22 Aiko Neostar "
            "450 W modules, 9.9 kWp in total, a Fronius Symo GEN24 10.0 inverter and a BYD HVS "
            "7.7 kWh battery. Installed by Solarbau Reiter for 18,940 euros at 0% VAT. Feed-in "
            "tariff 8.03 cents per kWh for partial feed-in; registration in the "
            "Marktstammdatenregister done on 20 June (SEE number SEE912345678). First full "
            "month, July: 1,312 kWh generated, 71% self-consumption. The wallbox follows in the "
            "autumn, budget 1,500 euros."
        ),
        "changed": (
            "Photovoltaikanlage auf dem Süddach, in Betrieb seit 14. Juni: 22 Module Aiko "
            "Neostar 450 W, zusammen 9,9 kWp, Wechselrichter Fronius Symo GEN24 10.0, Speicher "
            "BYD HVS 7,7 kWh. Installiert von Solarbau Reiter für 18.940 Euro, 0 % "
            "Mehrwertsteuer. Einspeisevergütung 8,03 Cent pro kWh bei Teileinspeisung, Anmeldung "
            "im Marktstammdatenregister am 20. Juni erledigt (SEE-Nummer SEE912345678). Erster "
            "voller Monat Juli: 1.312 kWh erzeugt, 71 % Eigenverbrauch. Die Wallbox kommt "
            "vorerst nicht; stattdessen wird im Herbst der Speicher auf 10,2 kWh erweitert, "
            "Budget 2.100 Euro."
        ),
        "sibling": (
            "Stromvertrag ab 1. Januar zu Tibber mit dynamischem Tarif gewechselt: Grundgebühr "
            "5,99 Euro im Monat, Arbeitspreis stündlich nach Börsenpreis plus 2,15 Cent "
            "Aufschlag. Das Smart Meter haben die Stadtwerke Landshut am 9. Dezember eingebaut. "
            "Der alte Vertrag bei E.ON lag bei 32,4 Cent pro kWh; die Kündigung dort wurde am "
            "28. November bestätigt."
        ),
    },
    {
        "lang": "en",
        "topic": "piano care",
        "title": "Yamaha U1 piano tuning in October",
        "content": (
            "Piano: our 1978 Yamaha U1 upright (serial 2461873) was tuned on 9 October by Martin "
            "Feld from Feld Piano Services, £95. It had dropped to about 438 Hz after the "
            "summer, so he did a pitch raise first and then a fine tuning to A440. He found a "
            "sticking key (F#5) and eased the bushing at no charge. Humidity in the lounge was "
            "38%; he recommends keeping it between 45 and 55% and suggested a Dampp-Chaser "
            "system for about £260. Next tuning in April; he books six months ahead, call 07700 "
            "918 442."
        ),
        "paraphrase": (
            "Martin Feld of Feld Piano Services came on 9 October to tune our Yamaha U1 upright "
            "from 1978 (serial number 2461873), charging £95. Over the summer it had sagged to "
            "around 438 Hz, so he raised the pitch before fine-tuning it to A440. The F#5 key "
            "was sticking; he eased the bushing for free. He measured 38% humidity in the lounge "
            "and would like it kept at 45 to 55%; a Dampp-Chaser unit, roughly £260, was his "
            "suggestion. The next tuning is due in April. He's booked six months out, so ring "
            "07700 918 442 early."
        ),
        "translation": (
            "Klavier: Unser Yamaha U1 von 1978 (Seriennummer 2461873) wurde am 9. Oktober von "
            "Martin Feld von Feld Piano Services gestimmt, 95 £. Nach dem Sommer war es auf etwa "
            "438 Hz abgesunken, deshalb hat er die Tonhöhe zuerst angehoben und dann fein auf "
            "A440 gestimmt. Er hat eine klemmende Taste (Fis5) gefunden und die Garnierung "
            "kostenlos gelockert. Die Luftfeuchtigkeit im Wohnzimmer lag bei 38 %; er empfiehlt "
            "45 bis 55 % und schlug ein Dampp-Chaser-System für etwa 260 £ vor. Nächstes Stimmen "
            "im April; er ist sechs Monate im Voraus ausgebucht, Telefon 07700 918 442."
        ),
        "changed": (
            "Piano: our 1978 Yamaha U1 upright (serial 2461873) was tuned on 9 October by Martin "
            "Feld from Feld Piano Services, £120. It had dropped to about 436 Hz after the "
            "summer, so he did a pitch raise first and then a fine tuning to A440. He found a "
            "sticking key (F#5) and eased the bushing at no charge. Humidity in the lounge was "
            "38%; he recommends keeping it between 45 and 55% and suggested a Dampp-Chaser "
            "system for about £260. Next tuning in April; he books six months ahead, call 07700 "
            "918 442."
        ),
        "sibling": (
            "Piano lessons for Leo with Mrs Adeyemi: Thursdays 5:15 to 5:45 pm at her house on "
            "Cranmer Road, £22 per lesson, paid per half term. He is preparing ABRSM Grade 2; "
            "the exam is booked for 18 June at the Kingston centre, fee £52. Pieces: Minuet in G "
            "(Petzold), Lazy Days and the Swing Time study. Scales: D and A major, hands "
            "together."
        ),
    },
    {
        "lang": "en",
        "topic": "wedding planning",
        "title": "Wedding catering decision with Fig & Thyme",
        "content": (
            "Wedding planning, catering decision from the call with Fig & Thyme on 12 January: "
            "buffet for 86 guests at £48 per head, plus £6 per head for the evening bacon rolls. "
            "Menu: slow-roast lamb, miso aubergine for the 11 vegetarians, salmon for the two "
            "pregnant guests, and no nuts at all because of Jamie's allergy. Tasting on 22 "
            "February at their kitchen in Frome. Deposit of £1,000 paid, balance due 14 days "
            "before 6 June. Staff arrive at Hatherley Barn at 11 am; the venue's kitchen must be "
            "cleared by midnight."
        ),
        "paraphrase": (
            "We spoke to Fig & Thyme on 12 January and settled the catering: a buffet for 86 "
            "people at £48 a head, and an extra £6 a head for bacon rolls in the evening. On the "
            "menu: slow-roasted lamb, miso aubergine for our 11 vegetarians and salmon for the "
            "two guests who are pregnant. Because Jamie is allergic, nothing containing nuts "
            "will be served. We taste everything on 22 February in their Frome kitchen. The "
            "£1,000 deposit is paid; the rest is due 14 days ahead of the 6 June wedding. Their "
            "staff turn up at Hatherley Barn at 11 am, and the barn's kitchen has to be empty by "
            "midnight."
        ),
        "translation": (
            "Hochzeitsplanung, Catering-Entscheidung aus dem Telefonat mit Fig & Thyme am 12. "
            "Januar: Buffet für 86 Gäste zu 48 £ pro Kopf, plus 6 £ pro Kopf für die "
            "Bacon-Brötchen am Abend. Menü: langsam geschmortes Lamm, Miso-Aubergine für die 11 "
            "Vegetarier, Lachs für die zwei schwangeren Gäste und wegen Jamies Allergie "
            "überhaupt keine Nüsse. Probeessen am 22. Februar in ihrer Küche in Frome. Anzahlung "
            "von 1.000 £ bezahlt, der Rest ist 14 Tage vor dem 6. Juni fällig. Das Personal "
            "kommt um 11 Uhr in der Hatherley Barn an; die Küche der Location muss bis "
            "Mitternacht geräumt sein."
        ),
        "changed": (
            "Wedding planning, catering decision from the call with Fig & Thyme on 12 January: a "
            "plated three-course dinner instead of a buffet for 86 guests at £61 per head, plus "
            "£6 per head for the evening bacon rolls. Menu: slow-roast lamb, miso aubergine for "
            "the 11 vegetarians, salmon for the two pregnant guests, and no nuts at all because "
            "of Jamie's allergy. Tasting on 22 February at their kitchen in Frome. Deposit of "
            "£1,000 paid, balance due 14 days before 6 June. Staff arrive at Hatherley Barn at "
            "11 am; the venue's kitchen must be cleared by midnight."
        ),
        "sibling": (
            "Wedding music: booked the ceilidh band The Reel Deal for 6 June, 8 pm to midnight "
            "with a caller, £1,450, deposit of £300 paid on 3 February. The first dance is Can't "
            "Help Falling in Love, played live. The playlist for the drinks reception goes to "
            "their shared Spotify list by 1 May. They need a 13 A socket near the stage and a "
            "hot meal for 5 people."
        ),
    },
    {
        "lang": "de",
        "topic": "school trip",
        "title": "Klassenfahrt der 7b nach Berlin",
        "content": (
            "Klassenfahrt der 7b nach Berlin vom 15. bis 19. September: 27 Schülerinnen und "
            "Schüler, Begleitung durch Frau Demir und Herrn Stolz. Unterkunft im A&O Hostel "
            "Berlin Hauptbahnhof, Mehrbettzimmer mit Frühstück. Anreise mit dem ICE 1006 ab "
            "Nürnberg um 7:58 Uhr. Kosten 385 Euro pro Kind, zu überweisen bis 30. Juni an den "
            "Förderverein, Verwendungszweck: Klassenfahrt 7b plus Name. Programm: Bundestag mit "
            "Kuppel am 16. September, Gedenkstätte Berliner Mauer, Naturkundemuseum. Elternabend "
            "dazu am 3. Juni um 19 Uhr in Raum 214."
        ),
        "paraphrase": (
            "Die 7b fährt vom 15. bis 19. September nach Berlin, 27 Kinder, begleitet von Frau "
            "Demir und Herrn Stolz. Gewohnt wird im A&O Hostel am Berliner Hauptbahnhof in "
            "Mehrbettzimmern, Frühstück inklusive. Los geht es mit dem ICE 1006, der um 7:58 Uhr "
            "in Nürnberg abfährt. Pro Kind kostet die Fahrt 385 Euro; das Geld muss bis zum 30. "
            "Juni beim Förderverein eingehen, mit dem Verwendungszweck Klassenfahrt 7b und dem "
            "Namen des Kindes. Auf dem Plan stehen der Bundestag samt Kuppel am 16. September, "
            "die Gedenkstätte Berliner Mauer und das Naturkundemuseum. Informiert wird beim "
            "Elternabend am 3. Juni, 19 Uhr, Raum 214."
        ),
        "translation": (
            "Class trip of 7b to Berlin from 15 to 19 September: 27 pupils, accompanied by Ms "
            "Demir and Mr Stolz. Accommodation at the A&O Hostel Berlin Hauptbahnhof, shared "
            "rooms with breakfast. Outbound on ICE 1006 from Nuremberg at 7:58 am. Cost 385 "
            "euros per child, to be transferred by 30 June to the school's parents' association, "
            "reference: Klassenfahrt 7b plus name. Programme: the Bundestag with its dome on 16 "
            "September, the Berlin Wall Memorial and the Natural History Museum. Parents' "
            "evening about the trip on 3 June at 7 pm in room 214."
        ),
        "changed": (
            "Klassenfahrt der 7b nach Berlin vom 15. bis 19. September: 27 Schülerinnen und "
            "Schüler, Begleitung durch Frau Demir und Herrn Stolz. Unterkunft im A&O Hostel "
            "Berlin Hauptbahnhof, Mehrbettzimmer mit Frühstück. Anreise mit dem ICE 1006 ab "
            "Nürnberg um 7:58 Uhr. Kosten 425 Euro pro Kind, zu überweisen bis 15. Juli an den "
            "Förderverein, Verwendungszweck: Klassenfahrt 7b plus Name. Programm: Bundestag mit "
            "Kuppel am 16. September, Gedenkstätte Berliner Mauer, Naturkundemuseum. Elternabend "
            "dazu am 3. Juni um 19 Uhr in Raum 214."
        ),
        "sibling": (
            "Klasse 7b: Die Mathe-Schulaufgabe zum Thema Terme und Gleichungen ist am 14. "
            "November in der 3. Stunde. Zum Lernen: Buch Seite 62 bis 78 und im Arbeitsheft die "
            "Nummern 14 bis 22. Förderkurs bei Herrn Stolz jeden Mittwoch in der 7. Stunde, "
            "Anmeldung über das Elternportal. Ein Taschenrechner ist nicht erlaubt."
        ),
    },
    {
        "lang": "en",
        "topic": "insurance claim",
        "title": "Direct Line water damage claim",
        "content": (
            "Home insurance claim with Direct Line, claim number DL-4471902, for the leak from "
            "the upstairs bathroom on 7 January: the flexible hose to the basin tap burst and "
            "water came through the kitchen ceiling. Loss adjuster Sam Whitlock visited on 15 "
            "January and approved the ceiling replastering (£1,240 quote from Ridgeway "
            "Plastering) and drying equipment for 10 days. The laminate in the kitchen is being "
            "assessed separately. The policy excess is £350. The plumber's invoice (£145, Aqua "
            "Fix) was sent on 9 January. Payment expected within 10 working days of the final "
            "report."
        ),
        "paraphrase": (
            "We've claimed on our Direct Line home policy (claim DL-4471902) after the 7 January "
            "leak: the braided hose feeding the upstairs basin tap split and water poured "
            "through the kitchen ceiling. On 15 January the loss adjuster, Sam Whitlock, came "
            "round and signed off replastering the ceiling, quoted at £1,240 by Ridgeway "
            "Plastering, plus 10 days of drying machines. Whether the kitchen laminate is "
            "covered is being looked at on its own. We pay a £350 excess. Aqua Fix's £145 "
            "plumbing invoice went in on 9 January. The money should come within 10 working days "
            "once the final report is done."
        ),
        "translation": (
            "Schadensmeldung bei der Gebäudeversicherung von Direct Line, Schadennummer "
            "DL-4471902, für das Leck im Bad im Obergeschoss am 7. Januar: Der Flexschlauch zum "
            "Waschtischhahn ist geplatzt, und Wasser kam durch die Küchendecke. Der "
            "Schadensregulierer Sam Whitlock war am 15. Januar da und hat das Neuverputzen der "
            "Decke (Angebot von Ridgeway Plastering über 1.240 £) sowie Trocknungsgeräte für 10 "
            "Tage genehmigt. Das Laminat in der Küche wird gesondert begutachtet. Die "
            "Selbstbeteiligung beträgt 350 £. Die Rechnung des Installateurs (145 £, Aqua Fix) "
            "wurde am 9. Januar eingereicht. Zahlung voraussichtlich innerhalb von 10 Werktagen "
            "nach dem Abschlussbericht."
        ),
        "changed": (
            "Home insurance claim with Direct Line, claim number DL-4471902, for the leak from "
            "the upstairs bathroom on 7 January: the flexible hose to the basin tap burst and "
            "water came through the kitchen ceiling. Loss adjuster Sam Whitlock visited on 15 "
            "January and declined the ceiling replastering (£1,240 quote from Ridgeway "
            "Plastering) because the hose had been leaking for weeks, which the policy excludes; "
            "only drying equipment for 10 days is covered. The policy excess is £350. The "
            "plumber's invoice (£145, Aqua Fix) was sent on 9 January."
        ),
        "sibling": (
            "Car insurance renewal for the Corsa: Admiral quoted £612 for 2026, up from £489. "
            "Compared on MoneySuperMarket on 2 March: LV= offered £541 with a £250 voluntary "
            "excess and a protected no-claims bonus of 6 years. Switched to LV=, policy starts "
            "on 14 March; the Admiral auto-renewal was cancelled by phone, reference ADM-220391."
        ),
    },
    {
        "lang": "de",
        "topic": "blood tests",
        "title": "Blutwerte vom Check-up im Februar",
        "content": (
            "Blutwerte vom Check-up bei Dr. Hartl am 6. Februar: Vitamin D (25-OH) nur 14 ng/ml, "
            "Zielbereich über 30. Ferritin 22 µg/l, eher niedrig. TSH 1,9 mU/l, normal. "
            "LDL-Cholesterin 148 mg/dl, HbA1c 5,4 %. Verordnung: 20.000 I.E. Vitamin D einmal "
            "pro Woche für 12 Wochen, danach 1.000 I.E. täglich. Eisen vorerst nicht, aber mehr "
            "Hülsenfrüchte und zweimal pro Woche Fleisch. Kontrolle am 8. Mai nüchtern um 7:30 "
            "Uhr, Überweisung liegt an der Anmeldung. Den Vitamin-D-Test (18,50 Euro) zahlt die "
            "TK nur bei Verdacht, diesmal übernommen."
        ),
        "paraphrase": (
            "Beim Check-up am 6. Februar hat Dr. Hartl folgende Werte gemessen: Vitamin D "
            "(25-OH) bei lediglich 14 ng/ml, obwohl mehr als 30 angestrebt werden; Ferritin mit "
            "22 µg/l im unteren Bereich; TSH unauffällig bei 1,9 mU/l; LDL 148 mg/dl und HbA1c "
            "5,4 %. Ich soll 12 Wochen lang einmal wöchentlich 20.000 I.E. Vitamin D nehmen und "
            "anschließend täglich 1.000 I.E. Eisentabletten braucht es noch nicht, stattdessen "
            "öfter Hülsenfrüchte essen und zweimal die Woche Fleisch. Nachkontrolle am 8. Mai um "
            "7:30 Uhr, nüchtern; die Überweisung bekomme ich an der Anmeldung. Die 18,50 Euro "
            "für den Vitamin-D-Test übernimmt die TK eigentlich nur bei Verdacht, diesmal aber "
            "schon."
        ),
        "translation": (
            "Blood results from the check-up with Dr Hartl on 6 February: vitamin D (25-OH) only "
            "14 ng/ml, target range above 30. Ferritin 22 µg/l, rather low. TSH 1.9 mU/l, "
            "normal. LDL cholesterol 148 mg/dl, HbA1c 5.4%. Prescription: 20,000 IU of vitamin D "
            "once a week for 12 weeks, then 1,000 IU daily. No iron for now, but more pulses and "
            "meat twice a week. Follow-up on 8 May, fasting, at 7:30 am; the referral is at the "
            "reception desk. TK only pays for the vitamin D test (18.50 euros) if there is a "
            "clinical suspicion, but covered it this time."
        ),
        "changed": (
            "Blutwerte vom Check-up bei Dr. Hartl am 6. Februar: Vitamin D (25-OH) nur 9 ng/ml, "
            "Zielbereich über 30. Ferritin 22 µg/l, eher niedrig. TSH 1,9 mU/l, normal. "
            "LDL-Cholesterin 148 mg/dl, HbA1c 5,4 %. Verordnung: 20.000 I.E. Vitamin D einmal "
            "pro Woche für 12 Wochen, danach 1.000 I.E. täglich. Eisen vorerst nicht, aber mehr "
            "Hülsenfrüchte und zweimal pro Woche Fleisch. Kontrolle am 22. Mai nüchtern um 7:30 "
            "Uhr, Überweisung liegt an der Anmeldung. Den Vitamin-D-Test (18,50 Euro) zahlt die "
            "TK nur bei Verdacht, diesmal übernommen."
        ),
        "sibling": (
            "Zahnarzt Dr. Nowak: Die Krone auf Zahn 36 muss erneuert werden. Heil- und "
            "Kostenplan vom 12. März über 1.186 Euro, Festzuschuss der TK 441 Euro mit Bonusheft "
            "(10 Jahre lückenlos), Eigenanteil also 745 Euro. Die Zusatzversicherung bei der "
            "Ergo übernimmt 80 % des Eigenanteils; Plan dort am 14. März eingereicht. "
            "Präparation am 2. April um 9 Uhr."
        ),
    },
    {
        "lang": "en",
        "topic": "api design",
        "title": "Public API per-key rate limits",
        "content": (
            "API decision, architecture review 28 August: public API rate limits move from "
            "per-IP to per-API-key, enforced in the Envoy gateway with the Redis-backed global "
            "rate limit service. Free tier: 60 requests per minute, burst 20. Business tier: 600 "
            "per minute, burst 100. Responses over the limit return 429 with a Retry-After "
            "header and X-RateLimit-Remaining. Webhook deliveries are excluded. Partner "
            "integrations (currently 7 keys, including Datacraft and Nordwind) get a 2x "
            "allowance until 31 December. Rollout behind the flag ratelimit_per_key on 9 "
            "September."
        ),
        "paraphrase": (
            "The architecture review on 28 August decided that the public API will limit "
            "requests per API key rather than per IP address. Enforcement happens in the Envoy "
            "gateway using the global rate-limit service backed by Redis. Free-tier keys get 60 "
            "requests a minute with bursts up to 20; Business-tier keys get 600 a minute with "
            "bursts up to 100. A client that exceeds its limit receives HTTP 429 along with "
            "Retry-After and X-RateLimit-Remaining headers. Webhook deliveries don't count. The "
            "7 partner keys, Datacraft and Nordwind among them, are allowed double until 31 "
            "December. It ships on 9 September behind the ratelimit_per_key flag."
        ),
        "translation": (
            "API-Entscheidung aus dem Architektur-Review am 28. August: Die Rate Limits der "
            "öffentlichen API werden von pro IP auf pro API-Schlüssel umgestellt und im "
            "Envoy-Gateway mit dem Redis-gestützten globalen Rate-Limit-Service durchgesetzt. "
            "Free-Tarif: 60 Anfragen pro Minute, Burst 20. Business-Tarif: 600 pro Minute, Burst "
            "100. Antworten über dem Limit liefern 429 mit einem Retry-After-Header und "
            "X-RateLimit-Remaining. Webhook-Zustellungen sind ausgenommen. Partner-Integrationen "
            "(derzeit 7 Schlüssel, darunter Datacraft und Nordwind) erhalten bis 31. Dezember "
            "das doppelte Kontingent. Rollout hinter dem Flag ratelimit_per_key am 9. September."
        ),
        "changed": (
            "API decision, architecture review 28 August: public API rate limits move from "
            "per-IP to per-API-key, enforced in the Envoy gateway with the Redis-backed global "
            "rate limit service. Free tier: 60 requests per minute, burst 20. Business tier: 600 "
            "per minute, burst 100. Responses over the limit return 429 with a Retry-After "
            "header and X-RateLimit-Remaining. Webhook deliveries count against the limit. "
            "Partner integrations (currently 7 keys, including Datacraft and Nordwind) get no "
            "extra allowance. Rollout behind the flag ratelimit_per_key on 9 September."
        ),
        "sibling": (
            "API deprecation notice: the v1 endpoints /v1/orders and /v1/customers are switched "
            "off on 31 March. A Sunset header has been sent since 1 October; 23 customers still "
            "called v1 in February, the biggest being Datacraft with 41,000 calls a day. "
            "Customer success (Lena) emails each of them the migration guide, and a second "
            "reminder goes out on 1 March."
        ),
    },
    {
        "lang": "de",
        "topic": "customer contract",
        "title": "Bäckerei Ziegler: Wartungsvertrag verlängert",
        "content": (
            "Kundentermin Bäckerei Ziegler GmbH (Regensburg, 9 Filialen) am 17. Oktober mit "
            "Geschäftsführer Herrn Ziegler junior und Frau Pöschl aus der Buchhaltung: Der "
            "Wartungsvertrag für die 14 Kassensysteme wird um 3 Jahre bis 31. Dezember 2028 "
            "verlängert, monatlich 890 Euro netto statt bisher 820 Euro. Neu dazu kommt ab "
            "Januar die Schnittstelle zu DATEV, einmalig 1.200 Euro. Die Reaktionszeit bei "
            "Ausfall bleibt 4 Stunden, samstags ab 6 Uhr. Den Vertragsentwurf schicke ich bis "
            "24. Oktober an Frau Pöschl. Nächster Termin: Filialeröffnung in Neutraubling im "
            "März."
        ),
        "paraphrase": (
            "Am 17. Oktober war ich bei der Bäckerei Ziegler GmbH in Regensburg, die 9 Filialen "
            "hat; dabei waren Herr Ziegler junior als Geschäftsführer und Frau Pöschl von der "
            "Buchhaltung. Ergebnis: Die Wartung der 14 Kassen läuft drei weitere Jahre, bis zum "
            "31. Dezember 2028, und kostet künftig 890 statt 820 Euro netto im Monat. Ab Januar "
            "bekommen sie zusätzlich eine DATEV-Schnittstelle für einmalig 1.200 Euro. Bei einem "
            "Ausfall reagieren wir weiterhin innerhalb von 4 Stunden, am Samstag ab 6 Uhr früh. "
            "Den Vertragsentwurf bekommt Frau Pöschl spätestens am 24. Oktober von mir. "
            "Wiedersehen bei der Eröffnung der Filiale in Neutraubling im März."
        ),
        "translation": (
            "Customer meeting with Bäckerei Ziegler GmbH (Regensburg, 9 branches) on 17 October "
            "with the managing director, Mr Ziegler junior, and Ms Pöschl from accounting: the "
            "maintenance contract for the 14 till systems is extended by 3 years until 31 "
            "December 2028, at 890 euros net per month instead of the previous 820 euros. New "
            "from January: the interface to DATEV, one-off 1,200 euros. The response time in "
            "case of failure stays at 4 hours, on Saturdays from 6 am. I will send the draft "
            "contract to Ms Pöschl by 24 October. Next meeting: the branch opening in "
            "Neutraubling in March."
        ),
        "changed": (
            "Kundentermin Bäckerei Ziegler GmbH (Regensburg, 9 Filialen) am 17. Oktober mit "
            "Geschäftsführer Herrn Ziegler junior und Frau Pöschl aus der Buchhaltung: Der "
            "Wartungsvertrag für die 14 Kassensysteme wird um 2 Jahre bis 31. Dezember 2027 "
            "verlängert, monatlich 860 Euro netto statt bisher 820 Euro. Neu dazu kommt ab "
            "Januar die Schnittstelle zu DATEV, einmalig 1.200 Euro. Die Reaktionszeit bei "
            "Ausfall bleibt 4 Stunden, samstags ab 6 Uhr. Den Vertragsentwurf schicke ich bis "
            "24. Oktober an Frau Pöschl. Nächster Termin: Filialeröffnung in Neutraubling im "
            "März."
        ),
        "sibling": (
            "Kundennotiz Metzgerei Brunner (Straubing): Reklamation vom 4. November, der "
            "Etikettendrucker an der Waage in Filiale 2 druckt seit dem Update auf Version 5.3 "
            "keine Allergene mehr. Ticket 77413, Herr Brunner bittet um Rückruf unter 09421 55 "
            "10 2. Workaround: Etikettenvorlage aus Version 5.2 wieder eingespielt. Dauerhafte "
            "Lösung vom Hersteller für KW 47 zugesagt."
        ),
    },
    {
        "lang": "en",
        "topic": "genealogy",
        "title": "Thomas Aldridge birth date corrected",
        "content": (
            "Family history: great-grandfather Thomas Aldridge was born on 14 March 1889 in "
            "Lowestoft, not in 1891 as the family Bible says. Confirmed by the GRO birth index "
            "(Mutford district, volume 4a, page 412) and by the 1891 census, which shows him "
            "aged 2 at 17 Raglan Street. He married Edith Crane on 2 June 1912 at St Margaret's, "
            "Lowestoft. Ordered the marriage certificate from the GRO on 5 November, £12.50, "
            "reference GRO-2611-88472. Still unknown: what happened to his brother William after "
            "the 1901 census, when he was a fisherman's apprentice aged 15."
        ),
        "paraphrase": (
            "Our great-grandfather Thomas Aldridge was actually born in Lowestoft on 14 March "
            "1889; the family Bible's year of 1891 is wrong. The GRO birth index proves it "
            "(Mutford district, vol. 4a, p. 412), and so does the 1891 census, where he appears "
            "aged 2 at 17 Raglan Street. On 2 June 1912 he married Edith Crane in St Margaret's "
            "church, Lowestoft. I ordered their marriage certificate from the GRO on 5 November "
            "for £12.50, reference GRO-2611-88472. The open question is his brother William: in "
            "the 1901 census he is 15 and apprenticed to a fisherman, and after that the trail "
            "goes cold."
        ),
        "translation": (
            "Familiengeschichte: Urgroßvater Thomas Aldridge wurde am 14. März 1889 in Lowestoft "
            "geboren, nicht 1891, wie es in der Familienbibel steht. Bestätigt durch den "
            "Geburtenindex des GRO (Bezirk Mutford, Band 4a, Seite 412) und durch die "
            "Volkszählung von 1891, die ihn mit 2 Jahren in der Raglan Street 17 zeigt. Er "
            "heiratete Edith Crane am 2. Juni 1912 in St Margaret's in Lowestoft. Die "
            "Heiratsurkunde habe ich am 5. November beim GRO bestellt, 12,50 £, Referenz "
            "GRO-2611-88472. Noch unbekannt: was aus seinem Bruder William nach der Volkszählung "
            "von 1901 wurde, als er mit 15 Jahren Fischerlehrling war."
        ),
        "changed": (
            "Family history: great-grandfather Thomas Aldridge was born on 14 March 1891 in "
            "Lowestoft, as the family Bible says; the 1889 entry in the GRO birth index (Mutford "
            "district, volume 4a, page 412) turned out to be a cousin of the same name. The 1891 "
            "census shows our Thomas aged 0 at 17 Raglan Street. He married Edith Crane on 2 "
            "June 1912 at St Margaret's, Lowestoft. Ordered the marriage certificate from the "
            "GRO on 5 November, £12.50, reference GRO-2611-88472. Still unknown: what happened "
            "to his brother William after the 1901 census."
        ),
        "sibling": (
            "Family history, Grandma Joan's side: the Pettigrews from Dundee. Her father Robert "
            "worked at the Camperdown jute works and emigrated to Hamilton, Ontario in 1923 "
            "aboard the SS Athenia, arriving on 9 May. Found the passenger list on Ancestry, "
            "page 14, line 22. Cousin Fiona in Perth has the family photographs and will scan "
            "them in February."
        ),
    },
]
