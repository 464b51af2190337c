"""Tuning pairs for the Guard's near-duplicate check: 64 notes, 40 English and 24 German.

Written by hand as tuning data for bench/guard_pairs.py. Each note has a same-language paraphrase
and a translation (duplicates the Guard should catch), plus a changed version that differs in one
to three facts and a sibling from the same area (both must stay separate notes).
"""

from __future__ import annotations

NOTES: list[dict[str, str]] = [
    {
        "lang": "en",
        "topic": "postgres backup",
        "title": "Postgres backup schedule for the billing DB",
        "content": (
            "The billing database (Postgres 15.4 on db-billing-01) is backed up with pgBackRest. A "
            "full backup runs every Sunday at 02:00 UTC, differential backups run Monday to "
            "Saturday at 02:00, and WAL archiving goes continuously to the S3 bucket "
            "acme-pg-archive in eu-central-1. Retention is 14 days for full backups. Restores were "
            "last tested on 3 March by Priya; restoring the 180 GB database took 47 minutes. "
            "Alerts go to #db-oncall if the newest backup is older than 26 hours."
        ),
        "paraphrase": (
            "We use pgBackRest to protect db-billing-01, the Postgres 15.4 server behind billing. "
            "Every Sunday at 02:00 UTC it takes a full backup; on the other six days, Monday "
            "through Saturday, a differential one starts at that same time. WAL segments are "
            "shipped without pause to acme-pg-archive, an S3 bucket in eu-central-1. Full backups "
            "are kept for 14 days. Priya did the most recent restore test on 3 March, and getting "
            "the 180 GB database back took 47 minutes. When no backup is newer than 26 hours, "
            "#db-oncall receives an alert."
        ),
        "translation": (
            "Die Billing-Datenbank (Postgres 15.4 auf db-billing-01) wird mit pgBackRest "
            "gesichert. Jeden Sonntag um 02:00 UTC läuft ein Vollbackup, von Montag bis Samstag "
            "jeweils um 02:00 ein differenzielles Backup, und die WAL-Archivierung schreibt "
            "laufend in den S3-Bucket acme-pg-archive in eu-central-1. Vollbackups werden 14 Tage "
            "aufbewahrt. Die Wiederherstellung hat Priya zuletzt am 3. März getestet; das "
            "Zurückspielen der 180 GB großen Datenbank dauerte 47 Minuten. Ist das neueste Backup "
            "älter als 26 Stunden, geht ein Alarm an #db-oncall."
        ),
        "changed": (
            "The billing database (Postgres 15.4 on db-billing-01) is backed up with pgBackRest. A "
            "full backup runs every Sunday at 03:30 UTC, differential backups run Monday to "
            "Saturday at 03:30, and WAL archiving goes continuously to the S3 bucket "
            "acme-pg-archive in eu-central-1. Retention is 30 days for full backups. Restores were "
            "last tested on 3 March by Priya; restoring the 180 GB database took 47 minutes. "
            "Alerts go to #db-oncall if the newest backup is older than 26 hours."
        ),
        "sibling": (
            "Connection pooling for the billing Postgres cluster goes through PgBouncer 1.21 in "
            "transaction mode on port 6432. Each database gets a pool of 40 server connections, "
            "and client connections are capped at 800. Prepared statements are turned off in the "
            "ORM because transaction pooling breaks them. If the app logs 'no more connections "
            "allowed', check SHOW POOLS in pgbouncer before raising max_connections on Postgres, "
            "which stays at 200."
        ),
    },
    {
        "lang": "de",
        "topic": "Zahnarzttermin",
        "title": "Zahnarzt: Wurzelbehandlung und Folgetermine",
        "content": (
            "Termin bei Dr. Hoffmann in der Praxis am Lindenplatz 7 ist am Dienstag, 14. Mai, um "
            "8:30 Uhr. Es geht um die Wurzelbehandlung am unteren linken Backenzahn (Zahn 36), "
            "geplant sind zwei Sitzungen zu je 90 Minuten. Die Krankenkasse übernimmt die "
            "Grundbehandlung, der Eigenanteil für die Krone liegt laut Heil- und Kostenplan bei "
            "412 Euro. Vorher nichts Blutverdünnendes nehmen, also ab dem 10. Mai kein Aspirin. "
            "Die Praxis ist unter 0621 448 29 erreichbar, Absagen bitte mindestens 24 Stunden "
            "vorher."
        ),
        "paraphrase": (
            "Am Dienstag, dem 14. Mai, muss ich um 8:30 Uhr zu Dr. Hoffmann, Praxis Lindenplatz 7. "
            "Behandelt wird Zahn 36, der hintere Backenzahn unten links: eine Wurzelbehandlung, "
            "aufgeteilt auf zwei Termine von jeweils 90 Minuten. Den Grundteil zahlt die Kasse; "
            "für die Krone bleiben nach dem Heil- und Kostenplan 412 Euro an mir hängen. Ab dem "
            "10. Mai kein Aspirin und auch sonst nichts, was das Blut verdünnt. Telefonnummer der "
            "Praxis: 0621 448 29. Wer absagen muss, meldet sich spätestens 24 Stunden vorher."
        ),
        "translation": (
            "The appointment with Dr. Hoffmann at the practice on Lindenplatz 7 is on Tuesday, 14 "
            "May, at 8:30. It is for the root canal treatment on the lower left molar (tooth 36); "
            "two sessions of 90 minutes each are planned. Health insurance covers the basic "
            "treatment, and according to the treatment and cost plan my share for the crown is 412 "
            "euros. Take nothing that thins the blood beforehand, so no aspirin from 10 May on. "
            "The practice can be reached at 0621 448 29; cancellations at least 24 hours in "
            "advance, please."
        ),
        "changed": (
            "Nachtrag zum Termin bei Dr. Hoffmann in der Praxis am Lindenplatz 7 am Dienstag, 14. "
            "Mai: Die Wurzelbehandlung am unteren linken Backenzahn (Zahn 36) wurde abgebrochen, "
            "weil der Zahn einen Längsriss hat. Er wird stattdessen am 28. Mai um 8:30 Uhr "
            "gezogen, danach ist ein Implantat geplant. Der Eigenanteil liegt laut neuem Heil- und "
            "Kostenplan bei 1.850 Euro statt 412 Euro für die Krone. Vorher nichts "
            "Blutverdünnendes nehmen, also ab dem 24. Mai kein Aspirin. Die Praxis ist unter 0621 "
            "448 29 erreichbar, Absagen bitte mindestens 24 Stunden vorher."
        ),
        "sibling": (
            "Physiotherapie wegen der Schulter: Dr. Berger hat am 2. April ein Rezept über 6 "
            "Einheiten Krankengymnastik ausgestellt. Die Termine sind bei Physio Kraemer in der "
            "Bahnhofstraße, immer donnerstags um 17:15 Uhr. Die Behandlung muss innerhalb von 28 "
            "Tagen nach Ausstellung beginnen. Zuzahlung: 10 Euro plus 10 Prozent der Kosten, "
            "zusammen etwa 24 Euro. Für zuhause: Pendelübungen und Theraband, täglich 10 Minuten."
        ),
    },
    {
        "lang": "en",
        "topic": "team offsite",
        "title": "Q3 platform team offsite in Porto",
        "content": (
            "The platform team offsite is confirmed for 17-19 September in Porto. We booked 14 "
            "rooms at Hotel Carris Ribeira for three nights at 128 EUR per room per night; the "
            "invoice goes to cost center 4410. Workshops take place in the hotel's Douro room, "
            "which holds 20 people. Day two ends with dinner at Cantinho do Avillez at 19:30, "
            "budget 60 EUR per person. Flights must be booked by 1 August through TravelPerk. "
            "Marta is the organiser and the contact for dietary requirements."
        ),
        "paraphrase": (
            "Porto it is: the platform team meets from 17 to 19 September. For those three nights, "
            "14 rooms are reserved at Hotel Carris Ribeira, each at 128 EUR a night and billed to "
            "cost center 4410. The Douro room in the same hotel, with space for 20, is where the "
            "workshops happen. On the evening of the second day we eat at Cantinho do Avillez, "
            "table at 19:30, with 60 EUR per head to spend. Everyone books their flight through "
            "TravelPerk, no later than 1 August. Dietary requirements go to Marta, who is "
            "organising the whole trip."
        ),
        "translation": (
            "Das Offsite des Platform-Teams ist für den 17. bis 19. September in Porto bestätigt. "
            "Im Hotel Carris Ribeira haben wir 14 Zimmer für drei Nächte zu je 128 EUR pro Zimmer "
            "und Nacht gebucht; die Rechnung geht auf Kostenstelle 4410. Die Workshops finden im "
            "Douro-Raum des Hotels statt, der Platz für 20 Personen bietet. Am zweiten Tag gibt es "
            "um 19:30 Uhr ein Abendessen im Cantinho do Avillez, Budget 60 EUR pro Person. Flüge "
            "müssen bis zum 1. August über TravelPerk gebucht werden. Marta organisiert alles und "
            "ist Ansprechpartnerin für Essenswünsche."
        ),
        "changed": (
            "The platform team offsite is confirmed for 24-26 September in Porto. We booked 16 "
            "rooms at Hotel Carris Ribeira for three nights at 128 EUR per room per night; the "
            "invoice goes to cost center 4410. Workshops take place in the hotel's Douro room, "
            "which holds 20 people. Day two ends with dinner at Cantinho do Avillez at 19:30, "
            "budget 60 EUR per person. Flights must be booked by 1 August through TravelPerk. "
            "Marta is the organiser and the contact for dietary requirements."
        ),
        "sibling": (
            "The engineering all-hands moves from Thursdays to the first Tuesday of each month, "
            "16:00-17:00 CET, starting 4 June. Format: 20 minutes of company updates from Jonas, "
            "two 10-minute team demos, then open Q&A through Slido. Recordings land on the "
            "Confluence page 'All-hands archive' within 24 hours. Remote people join via the Zoom "
            "room ENG-ALL."
        ),
    },
    {
        "lang": "en",
        "topic": "api rate limiting",
        "title": "Rate limits for the public REST API",
        "content": (
            "Decision from the API guild on 12 February: the public REST API gets a token-bucket "
            "rate limit per API key. Free plan keys get 60 requests per minute with a burst of 20; "
            "Pro keys get 600 per minute with a burst of 100. Limits are enforced in the Envoy "
            "gateway using the global ratelimit service backed by Redis, not in the application. "
            "Requests over the limit get HTTP 429 with a Retry-After header. The change ships in "
            "API version 2024-03 and customers get 30 days' notice by email. Owner: Kenji "
            "Watanabe."
        ),
        "paraphrase": (
            "On 12 February the API guild settled how the public REST API will be throttled: one "
            "token bucket per API key. Keys on the free plan may send 60 requests a minute and "
            "burst up to 20, while Pro keys are allowed 600 a minute with bursts of 100. The "
            "application itself does nothing here; enforcement lives in the Envoy gateway through "
            "the global ratelimit service, which keeps its counters in Redis. Anyone who exceeds "
            "the limit receives HTTP 429 together with a Retry-After header. It goes out with API "
            "version 2024-03, and customers are told by email 30 days ahead. Kenji Watanabe owns "
            "it."
        ),
        "translation": (
            "Entscheidung der API-Gilde vom 12. Februar: Die öffentliche REST-API bekommt ein "
            "Token-Bucket-Ratenlimit pro API-Schlüssel. Schlüssel im Free-Tarif erhalten 60 "
            "Anfragen pro Minute mit einem Burst von 20, Pro-Schlüssel 600 pro Minute mit einem "
            "Burst von 100. Durchgesetzt werden die Limits im Envoy-Gateway über den globalen "
            "Ratelimit-Dienst mit Redis im Hintergrund, nicht in der Anwendung. Anfragen über dem "
            "Limit erhalten HTTP 429 mit einem Retry-After-Header. Die Änderung kommt mit "
            "API-Version 2024-03, und Kunden werden 30 Tage vorher per E-Mail informiert. "
            "Verantwortlich: Kenji Watanabe."
        ),
        "changed": (
            "Update from the API guild on 26 February: after the load tests we reversed part of "
            "the rate limit decision. The public REST API still gets a token-bucket limit per API "
            "key, but it is now enforced in the application middleware instead of the Envoy "
            "gateway, because the global ratelimit service added 9 ms at p99. Free plan keys get "
            "100 requests per minute with a burst of 20; Pro keys stay at 600 per minute with a "
            "burst of 100. Requests over the limit get HTTP 429 with a Retry-After header. The "
            "change moves to API version 2024-04. Owner: Kenji Watanabe."
        ),
        "sibling": (
            "All list endpoints of the public REST API use cursor pagination. The default page "
            "size is 50 and the maximum is 200; responses carry a next_cursor field that is null "
            "on the last page. Cursors expire after 24 hours and must be treated as opaque "
            "strings. Offset pagination was removed in API version 2023-10, and clients still "
            "sending offset get HTTP 400 with error code pagination_offset_removed."
        ),
    },
    {
        "lang": "de",
        "topic": "Sauerteigbrot",
        "title": "Rezept: Roggenmischbrot mit Sauerteig",
        "content": (
            "Mein Standardrezept für ein Roggenmischbrot, ergibt einen Laib von etwa 1,2 kg. Am "
            "Vorabend 150 g Roggenmehl Type 1150 mit 150 g Wasser und 30 g Anstellgut verrühren "
            "und 12 Stunden bei Zimmertemperatur reifen lassen. Am nächsten Morgen 300 g "
            "Weizenmehl Type 1050, 100 g Roggenmehl, 280 g lauwarmes Wasser und 14 g Salz "
            "dazugeben und 8 Minuten kneten. Den Teig 90 Minuten gehen lassen, rund wirken und im "
            "bemehlten Gärkörbchen noch einmal 60 Minuten ruhen lassen. Im Gusstopf bei 250 °C 20 "
            "Minuten mit Deckel, dann 30 Minuten bei 220 °C ohne Deckel backen."
        ),
        "paraphrase": (
            "So backe ich mein Roggenmischbrot, ein Laib wiegt am Ende rund 1,2 kg. Der Sauerteig "
            "wird am Abend vorher angesetzt: 30 g Anstellgut, 150 g Wasser und 150 g Roggenmehl "
            "Type 1150 gut vermischen, dann 12 Stunden bei Raumtemperatur stehen lassen. Morgens "
            "kommen 300 g Weizenmehl Type 1050, weitere 100 g Roggenmehl, 280 g lauwarmes Wasser "
            "und 14 g Salz hinzu; alles 8 Minuten durchkneten. Nach 90 Minuten Gare wird der Teig "
            "rundgeformt und darf im bemehlten Gärkörbchen weitere 60 Minuten ruhen. Gebacken wird "
            "im Gusstopf: erst 20 Minuten bei 250 °C mit Deckel, danach 30 Minuten offen bei 220 "
            "°C."
        ),
        "translation": (
            "My standard recipe for a rye-wheat bread, makes one loaf of about 1.2 kg. The evening "
            "before, stir 150 g of type 1150 rye flour with 150 g of water and 30 g of starter and "
            "let it ripen for 12 hours at room temperature. The next morning add 300 g of type "
            "1050 wheat flour, 100 g of rye flour, 280 g of lukewarm water and 14 g of salt and "
            "knead for 8 minutes. Let the dough rise for 90 minutes, shape it into a round and let "
            "it rest again for 60 minutes in a floured proofing basket. Bake in a cast-iron pot at "
            "250 °C for 20 minutes with the lid on, then 30 minutes at 220 °C without the lid."
        ),
        "changed": (
            "Mein Standardrezept für ein Roggenmischbrot, ergibt einen Laib von etwa 1,2 kg. Am "
            "Vorabend 150 g Roggenmehl Type 1150 mit 150 g Wasser und 30 g Anstellgut verrühren "
            "und 16 Stunden bei Zimmertemperatur reifen lassen. Am nächsten Morgen 300 g "
            "Weizenmehl Type 1050, 100 g Roggenmehl, 280 g lauwarmes Wasser und 18 g Salz "
            "dazugeben und 8 Minuten kneten. Den Teig 90 Minuten gehen lassen, rund wirken und im "
            "bemehlten Gärkörbchen noch einmal 60 Minuten ruhen lassen. Im Gusstopf bei 250 °C 20 "
            "Minuten mit Deckel, dann 30 Minuten bei 220 °C ohne Deckel backen."
        ),
        "sibling": (
            "Linseneintopf für 4 Personen: 250 g Tellerlinsen, 2 Karotten, 1 Stange Lauch, 3 "
            "Kartoffeln und 1 Zwiebel. Gemüse würfeln, in Öl anschwitzen, Linsen und 1,2 Liter "
            "Gemüsebrühe dazugeben und 35 Minuten köcheln lassen. Zum Schluss 2 Esslöffel "
            "Weißweinessig und etwas Majoran unterrühren. Dazu passen Wiener Würstchen. Hält sich "
            "im Kühlschrank 3 Tage, lässt sich gut einfrieren."
        ),
    },
    {
        "lang": "en",
        "topic": "customer onboarding",
        "title": "New Enterprise customer: Northwind Logistics",
        "content": (
            "Northwind Logistics signed the Enterprise plan on 8 April: 250 seats, annual contract "
            "worth 94,000 USD, renewal date 8 April next year. Main contact is Dana Whitfield, "
            "Head of Operations; the technical contact is Raj Patel. They need SSO via Okta and "
            "data residency in our EU region (Frankfurt). The kickoff call is scheduled for 15 "
            "April at 10:00 Eastern. Their main use case is dispatch planning for 3 warehouses in "
            "Ohio, Texas and Georgia. Account manager on our side: Lena Brooks."
        ),
        "paraphrase": (
            "On 8 April Northwind Logistics put pen to paper for the Enterprise plan. The deal "
            "covers 250 seats for 94,000 USD per year and comes up for renewal on 8 April next "
            "year. Dana Whitfield, who heads operations there, is our main contact, and Raj Patel "
            "handles the technical side. Requirements: single sign-on through Okta, and their data "
            "must stay in the EU region in Frankfurt. We kick off with a call on 15 April, 10:00 "
            "Eastern time. What they mainly want is to plan dispatch across their 3 warehouses in "
            "Ohio, Texas and Georgia. Lena Brooks manages the account for us."
        ),
        "translation": (
            "Northwind Logistics hat am 8. April den Enterprise-Tarif unterschrieben: 250 "
            "Lizenzen, Jahresvertrag über 94.000 USD, Verlängerung am 8. April nächsten Jahres. "
            "Hauptansprechpartnerin ist Dana Whitfield, Leiterin Operations; technischer "
            "Ansprechpartner ist Raj Patel. Sie brauchen SSO über Okta und Datenhaltung in unserer "
            "EU-Region (Frankfurt). Das Kickoff-Gespräch ist für den 15. April um 10:00 Uhr "
            "Eastern Time angesetzt. Ihr wichtigster Anwendungsfall ist die Disposition für 3 "
            "Lager in Ohio, Texas und Georgia. Account Managerin auf unserer Seite: Lena Brooks."
        ),
        "changed": (
            "Update on Northwind Logistics, 2 May: they expanded their Enterprise plan from 250 to "
            "400 seats, and the annual contract is now worth 142,000 USD, renewal date still 8 "
            "April next year. Main contact is Dana Whitfield, Head of Operations; the technical "
            "contact is Raj Patel. They dropped Okta and want SSO via Azure AD instead, with data "
            "residency in our EU region (Frankfurt). Their main use case is dispatch planning, now "
            "for 5 warehouses after they took over two sites in Kentucky. Account manager on our "
            "side: Lena Brooks."
        ),
        "sibling": (
            "Bluefin Dental, a Pro plan customer with 40 seats, opened ticket #58213 on 11 March: "
            "invoices exported as CSV show broken characters in patient names with accents. Cause: "
            "the export writes UTF-8 without a BOM and Excel on Windows reads it as cp1252. "
            "Workaround sent by Omar: import through Data > From Text and choose UTF-8. A fix "
            "adding an 'Excel compatible' export option is planned for release 4.12."
        ),
    },
    {
        "lang": "de",
        "topic": "Steuererklärung",
        "title": "Steuererklärung 2023: Belege und Fristen",
        "content": (
            "Die Steuererklärung 2023 reicht wieder Frau Keller vom Steuerbüro Keller & Partner "
            "ein, mit Steuerberater gilt die Frist 2. Juni 2025. Alle Belege sollen bis Ende "
            "Februar bei ihr sein. Geltend machen wollen wir: Homeoffice-Pauschale für 210 Tage, "
            "also 1.260 Euro, Fahrten zur Arbeit an 15 Tagen mit 38 km einfacher Strecke, eine "
            "Spende von 250 Euro an Ärzte ohne Grenzen und 3.800 Euro Arbeitskosten aus der "
            "Badsanierung als Handwerkerleistung. Das Honorar des Steuerbüros liegt bei etwa 480 "
            "Euro. Letztes Jahr gab es 1.100 Euro zurück."
        ),
        "paraphrase": (
            "Eingereicht wird die Erklärung für 2023 erneut von Frau Keller (Steuerbüro Keller & "
            "Partner); weil ein Steuerberater sie macht, haben wir bis zum 2. Juni 2025 Zeit. Ihre "
            "Bitte: sämtliche Belege bis Ende Februar. Auf der Liste stehen diesmal die "
            "Homeoffice-Pauschale über 210 Tage, zusammen 1.260 Euro, dann 15 Arbeitstage im Büro "
            "bei 38 km einfachem Arbeitsweg, die 250-Euro-Spende an Ärzte ohne Grenzen sowie die "
            "Handwerkerkosten der Badsanierung mit 3.800 Euro Arbeitsanteil. Für das Büro selbst "
            "rechnen wir mit rund 480 Euro Honorar. Die Erstattung im Vorjahr betrug 1.100 Euro."
        ),
        "translation": (
            "The 2023 tax return will again be filed by Ms Keller of the tax office Keller & "
            "Partner; with a tax adviser the deadline is 2 June 2025. All receipts should be with "
            "her by the end of February. We want to claim: the home office allowance for 210 days, "
            "i.e. 1,260 euros, commuting on 15 days with a one-way distance of 38 km, a donation "
            "of 250 euros to Doctors Without Borders, and 3,800 euros of labour costs from the "
            "bathroom renovation as tradesman services. The tax office's fee is about 480 euros. "
            "Last year we got 1,100 euros back."
        ),
        "changed": (
            "Die Steuererklärung 2023 reicht wieder Frau Keller vom Steuerbüro Keller & Partner "
            "ein, mit Steuerberater gilt die Frist 2. Juni 2025. Alle Belege sollen bis Ende "
            "Februar bei ihr sein. Geltend machen wollen wir: Homeoffice-Pauschale für 180 Tage, "
            "also 1.080 Euro, Fahrten zur Arbeit an 45 Tagen mit 38 km einfacher Strecke, eine "
            "Spende von 250 Euro an Ärzte ohne Grenzen und 3.800 Euro Arbeitskosten aus der "
            "Badsanierung als Handwerkerleistung. Das Honorar des Steuerbüros liegt bei etwa 480 "
            "Euro. Letztes Jahr gab es 1.100 Euro zurück."
        ),
        "sibling": (
            "Der Notgroschen liegt seit 1. März auf dem Tagesgeldkonto bei der DKB: 12.000 Euro, "
            "das entspricht etwa sechs Monatsausgaben. Der Zins von 3,25 Prozent ist bis zum 31. "
            "August garantiert, danach gilt der variable Satz. Der Freistellungsauftrag über 1.000 "
            "Euro ist komplett bei der DKB eingetragen, weil das Girokonto bei der Sparkasse keine "
            "Zinsen bringt. Im September Zinsen vergleichen und notfalls wechseln."
        ),
    },
    {
        "lang": "en",
        "topic": "kubernetes upgrade",
        "title": "prod-eu cluster upgrade to Kubernetes 1.29",
        "content": (
            "The prod-eu EKS cluster will be upgraded from Kubernetes 1.28 to 1.29 on Wednesday 22 "
            "May, maintenance window 06:00-09:00 UTC. Order: control plane first, then the three "
            "managed node groups (general, memory, gpu) one at a time with maxUnavailable set to "
            "1. Before the window, bump the AWS Load Balancer Controller to 2.7.2 and cert-manager "
            "to 1.14. PodDisruptionBudgets for checkout and search must keep at least 2 pods "
            "ready. Tomás runs the upgrade and Ines is backup. Rollback: node groups can be "
            "recreated from launch template v41."
        ),
        "paraphrase": (
            "On Wednesday 22 May, between 06:00 and 09:00 UTC, prod-eu (our EKS cluster) moves "
            "from Kubernetes 1.28 to 1.29. The control plane goes first; after that the managed "
            "node groups general, memory and gpu are rolled one after another, maxUnavailable 1. "
            "Two add-ons need updating before the window starts: cert-manager to 1.14 and the AWS "
            "Load Balancer Controller to 2.7.2. For checkout and search, the PodDisruptionBudgets "
            "have to guarantee no fewer than 2 ready pods. Tomás does the work, with Ines as "
            "backup. If we need to roll back, launch template v41 lets us recreate the node "
            "groups."
        ),
        "translation": (
            "Der EKS-Cluster prod-eu wird am Mittwoch, 22. Mai, von Kubernetes 1.28 auf 1.29 "
            "aktualisiert, Wartungsfenster 06:00 bis 09:00 UTC. Reihenfolge: zuerst die Control "
            "Plane, dann die drei Managed Node Groups (general, memory, gpu) nacheinander mit "
            "maxUnavailable 1. Vor dem Fenster den AWS Load Balancer Controller auf 2.7.2 und "
            "cert-manager auf 1.14 anheben. Die PodDisruptionBudgets für checkout und search "
            "müssen mindestens 2 Pods bereit halten. Tomás führt das Upgrade durch, Ines ist "
            "Vertretung. Rollback: Die Node Groups lassen sich aus Launch Template v41 neu "
            "erstellen."
        ),
        "changed": (
            "The prod-eu EKS cluster will be upgraded from Kubernetes 1.28 to 1.29 on Thursday 23 "
            "May, maintenance window 05:00-08:00 UTC. Order: control plane first, then the three "
            "managed node groups (general, memory, gpu) one at a time with maxUnavailable set to "
            "1. Before the window, bump the AWS Load Balancer Controller to 2.7.2 and cert-manager "
            "to 1.14. PodDisruptionBudgets for checkout and search must keep at least 2 pods "
            "ready. Tomás runs the upgrade and Ines is backup. Rollback: node groups can be "
            "recreated from launch template v41."
        ),
        "sibling": (
            "In April we replaced Cluster Autoscaler on prod-eu with Karpenter 0.35. The NodePool "
            "'default' picks from c6i, m6i and r6i in sizes large to 4xlarge, mixing spot and "
            "on-demand, and consolidates nodes after 30 seconds of being empty. GPU workloads have "
            "their own NodePool with on-demand g5.2xlarge only, capped at 8 nodes. Karpenter "
            "itself runs on a small fixed node group of two t3.large."
        ),
    },
    {
        "lang": "en",
        "topic": "scheduling preferences",
        "title": "Sam's scheduling and travel preferences",
        "content": (
            "Preferences of Sam Ortega for scheduling: works 08:30-16:30 Berlin time Monday to "
            "Thursday and only until 13:00 on Fridays. No meetings before 10:00. Prefers 25-minute "
            "meetings instead of 30 and 50 instead of 60. The focus block on Wednesday 13:00-16:00 "
            "must never be booked. Uses Google Meet, not Zoom. For travel: aisle seat, Miles & "
            "More number is on file, and hotels no more than a 15-minute walk from the venue. "
            "Vegetarian and lactose intolerant, which matters for team dinners."
        ),
        "paraphrase": (
            "How Sam Ortega likes the calendar run: a working day of 08:30 to 16:30 Berlin time "
            "from Monday to Thursday, while Friday ends at 13:00. Nothing gets scheduled before "
            "10:00. Meetings should be 25 minutes rather than 30, and 50 rather than 60. On "
            "Wednesdays the slot from 13:00 to 16:00 is protected focus time and stays free. Calls "
            "happen in Google Meet; Zoom is not wanted. When travelling Sam sits on the aisle, the "
            "Miles & More number is already stored, and the hotel has to be within 15 minutes on "
            "foot of the venue. Team dinners need to work for a vegetarian who is lactose "
            "intolerant."
        ),
        "translation": (
            "Terminvorlieben von Sam Ortega: arbeitet Montag bis Donnerstag von 08:30 bis 16:30 "
            "Uhr Berliner Zeit, freitags nur bis 13:00 Uhr. Keine Meetings vor 10:00 Uhr. Lieber "
            "25-minütige Meetings statt 30 und 50 statt 60 Minuten. Der Fokusblock am Mittwoch von "
            "13:00 bis 16:00 Uhr darf nie belegt werden. Nutzt Google Meet, nicht Zoom. Auf "
            "Reisen: Gangplatz, die Miles-&-More-Nummer ist hinterlegt, und Hotels höchstens 15 "
            "Minuten zu Fuß vom Veranstaltungsort. Vegetarisch und laktoseintolerant, was bei "
            "Teamessen wichtig ist."
        ),
        "changed": (
            "Updated preferences of Sam Ortega for scheduling, valid from 1 July: works "
            "07:30-15:30 Berlin time Monday to Thursday and only until 13:00 on Fridays. Meetings "
            "before 10:00 are now fine on Tuesdays, but not on other days. Prefers 25-minute "
            "meetings instead of 30 and 50 instead of 60. The focus block moved to Thursday "
            "13:00-16:00 and must never be booked. Uses Google Meet, not Zoom. For travel: aisle "
            "seat, Miles & More number is on file, and hotels no more than a 15-minute walk from "
            "the venue. Vegetarian and lactose intolerant."
        ),
        "sibling": (
            "Family birthdays Sam wants reminders for: mother Elena on 3 October (likes orchids "
            "and Donna Leon crime novels), brother Luis on 21 January, and niece Sofia, who turns "
            "7 on 9 June and wants anything with dinosaurs. Budget is about 50 EUR per gift. Order "
            "at least a week ahead and ship to the Berlin address; Elena's present goes straight "
            "to her in Valencia."
        ),
    },
    {
        "lang": "de",
        "topic": "Sommerurlaub Südtirol",
        "title": "Sommerurlaub Südtirol: Unterkunft und Anreise",
        "content": (
            "Sommerurlaub in Südtirol vom 3. bis 17. August. Unterkunft ist die Ferienwohnung am "
            "Obereggerhof in Völs am Schlern, 2 Schlafzimmer, 145 Euro pro Nacht plus 80 Euro "
            "Endreinigung. Die Anzahlung von 600 Euro ist am 12. Februar überwiesen, der Rest wird "
            "bei Ankunft bar bezahlt. Anreise mit dem Auto über den Brenner, Vignette und "
            "Brennermaut zusammen etwa 25 Euro, Abfahrt früh um 5 Uhr wegen der Staus. Für den 10. "
            "August ist eine Übernachtung im Schlernhaus auf 2.457 m reserviert, Aufstieg von "
            "Völser Weiher in etwa 4 Stunden."
        ),
        "paraphrase": (
            "Vom 3. bis zum 17. August geht es nach Südtirol. Wir wohnen in Völs am Schlern, in "
            "der Ferienwohnung am Obereggerhof mit 2 Schlafzimmern; die Nacht kostet 145 Euro, "
            "dazu kommen einmalig 80 Euro für die Endreinigung. 600 Euro Anzahlung haben wir am "
            "12. Februar überwiesen, den Restbetrag zahlen wir vor Ort in bar, wenn wir ankommen. "
            "Gefahren wird mit dem Auto über den Brenner; für Vignette und Maut rechnen wir mit "
            "ungefähr 25 Euro und starten schon um 5 Uhr, um den Staus zu entgehen. Am 10. August "
            "schlafen wir im Schlernhaus (2.457 m), der Weg hinauf vom Völser Weiher dauert rund 4 "
            "Stunden."
        ),
        "translation": (
            "Summer holiday in South Tyrol from 3 to 17 August. We are staying in the holiday flat "
            "at the Obereggerhof in Völs am Schlern, 2 bedrooms, 145 euros per night plus 80 euros "
            "for final cleaning. The deposit of 600 euros was transferred on 12 February; the rest "
            "is paid in cash on arrival. We are driving over the Brenner Pass; the vignette and "
            "Brenner toll together come to about 25 euros, and we leave at 5 in the morning "
            "because of the traffic jams. For 10 August a night at the Schlernhaus at 2,457 m is "
            "booked; the climb from Völser Weiher takes about 4 hours."
        ),
        "changed": (
            "Sommerurlaub in Südtirol vom 10. bis 24. August. Unterkunft ist die Ferienwohnung am "
            "Obereggerhof in Völs am Schlern, 2 Schlafzimmer, 160 Euro pro Nacht plus 80 Euro "
            "Endreinigung. Die Anzahlung von 600 Euro ist am 12. Februar überwiesen, der Rest wird "
            "bei Ankunft bar bezahlt. Anreise mit dem Auto über den Brenner, Vignette und "
            "Brennermaut zusammen etwa 25 Euro, Abfahrt früh um 5 Uhr wegen der Staus. Für den 17. "
            "August ist eine Übernachtung im Schlernhaus auf 2.457 m reserviert, Aufstieg von "
            "Völser Weiher in etwa 4 Stunden."
        ),
        "sibling": (
            "Der Reisepass von Jonas läuft am 30. September ab, also rechtzeitig vor der "
            "Herbstreise verlängern. Termin im Bürgeramt Mitte ist am 6. Juni um 9:40 Uhr. "
            "Mitbringen: alten Pass, Personalausweis und ein biometrisches Passfoto vom "
            "Fotostudio. Die Gebühr beträgt 70 Euro, die Bearbeitung dauert vier bis sechs Wochen. "
            "Falls es knapp wird, gibt es den Expresspass gegen 32 Euro Aufpreis."
        ),
    },
    {
        "lang": "en",
        "topic": "incident webhooks",
        "title": "INC-2024-041: Stripe webhooks rejected after deploy",
        "content": (
            "Incident INC-2024-041 on 9 April: from 13:12 to 14:05 UTC the payments service "
            "rejected Stripe webhooks with HTTP 500 after the 3.18.0 deploy. Root cause: the new "
            "signature check read the secret from STRIPE_WEBHOOK_KEY, but in production the "
            "variable is called STRIPE_WEBHOOK_SECRET. About 1,240 events failed; Stripe retried "
            "them and all were processed by 16:30, so no payments were lost. 37 customers saw "
            "their subscription marked past_due for up to three hours. Fix shipped in 3.18.1. "
            "Follow-ups: config validation at startup (owner: Ahmed) and an alert when the webhook "
            "5xx rate exceeds 2 percent."
        ),
        "paraphrase": (
            "What happened in INC-2024-041: once 3.18.0 was deployed on 9 April, the payments "
            "service answered every Stripe webhook with HTTP 500, starting at 13:12 UTC and "
            "lasting until 14:05. The new signature verification looked for its secret in "
            "STRIPE_WEBHOOK_KEY, while production only defines STRIPE_WEBHOOK_SECRET. Roughly "
            "1,240 events failed, but Stripe retried them and by 16:30 every one had gone through, "
            "so not a single payment was lost. For up to three hours, 37 customers had a "
            "subscription showing past_due. Version 3.18.1 contains the fix. Still to do: Ahmed "
            "adds config validation at startup, and we alert when more than 2 percent of webhook "
            "responses are 5xx."
        ),
        "translation": (
            "Incident INC-2024-041 am 9. April: Von 13:12 bis 14:05 UTC lehnte der "
            "Payments-Service nach dem Deployment von 3.18.0 Stripe-Webhooks mit HTTP 500 ab. "
            "Ursache: Die neue Signaturprüfung las das Secret aus STRIPE_WEBHOOK_KEY, in "
            "Produktion heißt die Variable aber STRIPE_WEBHOOK_SECRET. Etwa 1.240 Events schlugen "
            "fehl; Stripe hat sie erneut zugestellt, und bis 16:30 Uhr waren alle verarbeitet, es "
            "ging also keine Zahlung verloren. Bei 37 Kunden stand das Abo bis zu drei Stunden auf "
            "past_due. Der Fix kam mit 3.18.1. Nacharbeiten: Konfigurationsprüfung beim Start "
            "(zuständig: Ahmed) und ein Alarm, wenn die 5xx-Rate der Webhooks über 2 Prozent "
            "steigt."
        ),
        "changed": (
            "Incident INC-2024-041 on 9 April: from 13:12 to 15:40 UTC the payments service "
            "rejected Stripe webhooks with HTTP 500 after the 3.18.0 deploy. Root cause: the new "
            "signature check read the secret from STRIPE_WEBHOOK_KEY, but in production the "
            "variable is called STRIPE_WEBHOOK_SECRET. About 3,900 events failed; Stripe retried "
            "them and all were processed by 16:30, so no payments were lost. 37 customers saw "
            "their subscription marked past_due for up to three hours. Fix shipped in 3.18.1. "
            "Follow-ups: config validation at startup (owner: Ahmed) and an alert when the webhook "
            "5xx rate exceeds 2 percent."
        ),
        "sibling": (
            "INC-2024-038 on 2 April: search latency spiked after the nightly reindex. The "
            "Elasticsearch cluster es-search-prod reached 92 percent heap on two of its five data "
            "nodes, and p95 latency for /search rose to 4.2 seconds for about 25 minutes. Cause: "
            "the reindex job used bulk batches of 5,000 documents. Fix: batch size lowered to "
            "1,000 and a heap alert added at 80 percent. No data was lost."
        ),
    },
    {
        "lang": "en",
        "topic": "python dependencies",
        "title": "Dependency pinning policy for Python services",
        "content": (
            "Policy agreed in the backend chapter on 5 March: all Python services pin dependencies "
            "with uv lock files committed to the repo; requirements.txt is only generated for the "
            "Docker build. Direct dependencies in pyproject.toml use compatible ranges such as "
            "httpx>=0.27,<0.28, and transitive ones come from the lock. Renovate opens grouped "
            "update PRs every Monday at 06:00, and minor updates auto-merge when CI passes. Python "
            "is pinned to 3.12.3 in .python-version. Security fixes flagged by pip-audit must be "
            "merged within 5 working days. Contact: Sofia Marchetti."
        ),
        "paraphrase": (
            "The backend chapter agreed on 5 March how Python services handle dependencies. Every "
            "repo commits a uv lock file, and requirements.txt exists only as a generated artefact "
            "for building the Docker image. In pyproject.toml, direct dependencies get compatible "
            "ranges (httpx>=0.27,<0.28, for example), while everything transitive is taken from "
            "the lock. Each Monday at 06:00 Renovate raises grouped update PRs; if CI is green, "
            "minor updates merge by themselves. The interpreter is fixed at 3.12.3 through "
            ".python-version. Anything pip-audit flags as a security fix has to be merged in no "
            "more than 5 working days. Questions go to Sofia Marchetti."
        ),
        "translation": (
            "Im Backend-Chapter am 5. März vereinbarte Regel: Alle Python-Services pinnen ihre "
            "Abhängigkeiten mit uv-Lockfiles, die ins Repo eingecheckt werden; requirements.txt "
            "wird nur für den Docker-Build erzeugt. Direkte Abhängigkeiten in pyproject.toml "
            "nutzen kompatible Bereiche wie httpx>=0.27,<0.28, transitive kommen aus dem Lockfile. "
            "Renovate öffnet jeden Montag um 06:00 Uhr gebündelte Update-PRs, und Minor-Updates "
            "werden automatisch gemergt, wenn die CI grün ist. Python ist in .python-version auf "
            "3.12.3 festgelegt. Sicherheitsfixes, die pip-audit meldet, müssen innerhalb von 5 "
            "Arbeitstagen gemergt werden. Ansprechpartnerin: Sofia Marchetti."
        ),
        "changed": (
            "Update from the backend chapter on 19 March: all Python services still pin "
            "dependencies with uv lock files committed to the repo, and requirements.txt is only "
            "generated for the Docker build. We dropped auto-merge for minor updates after the "
            "pydantic 2.7 upgrade broke two services; Renovate PRs now need one approval. Renovate "
            "opens grouped update PRs every Tuesday at 06:00. Python moves to 3.12.4 in "
            ".python-version. Security fixes flagged by pip-audit must be merged within 5 working "
            "days. Contact: Sofia Marchetti."
        ),
        "sibling": (
            "Logging convention for Python services: log JSON to stdout via structlog 24.1, with "
            "the fields timestamp (ISO 8601, UTC), level, service, trace_id and message. DEBUG "
            "stays off in production; set LOG_LEVEL=INFO in the Helm values. Never log request "
            "bodies of the /payments endpoints. Fluent Bit truncates lines longer than 16 KB, so "
            "large payloads must be summarised."
        ),
    },
    {
        "lang": "de",
        "topic": "Rennrad Wartung",
        "title": "Rennrad: Inspektion vor der Saison",
        "content": (
            "Das Rennrad (Canyon Endurace CF 7, Baujahr 2021) war am 9. März zur Inspektion bei "
            "Radhaus Weber in der Gartenstraße. Gemacht wurden: neue Kette Shimano CN-HG701, "
            "Kassette 11-34 getauscht, Bremsbeläge vorne und hinten erneuert und die Schaltzüge "
            "neu verlegt. Kosten insgesamt 238 Euro, davon 95 Euro Arbeitszeit. Reifendruck laut "
            "Mechaniker 5,5 bar vorne und 6 bar hinten bei 28-mm-Reifen. Die Kette soll nach etwa "
            "3.000 km geprüft werden, der Kilometerstand liegt jetzt bei 8.420 km. Nächste "
            "Inspektion im Herbst."
        ),
        "paraphrase": (
            "Am 9. März habe ich mein Rennrad, ein Canyon Endurace CF 7 von 2021, bei Radhaus "
            "Weber in der Gartenstraße durchchecken lassen. Die Werkstatt hat eine neue "
            "Shimano-Kette CN-HG701 montiert, die 11-34-Kassette ersetzt, vorne wie hinten frische "
            "Bremsbeläge eingesetzt und die Schaltzüge neu gezogen. Bezahlt habe ich 238 Euro, "
            "wovon 95 Euro auf die Arbeitszeit entfielen. Bei den 28-mm-Reifen empfiehlt der "
            "Mechaniker 5,5 bar vorne und hinten 6 bar. Nach rund 3.000 km sollte ich die Kette "
            "nachmessen; auf dem Tacho stehen momentan 8.420 km. Im Herbst ist die nächste "
            "Inspektion fällig."
        ),
        "translation": (
            "The road bike (Canyon Endurace CF 7, built 2021) had its service at Radhaus Weber on "
            "Gartenstraße on 9 March. Work done: new Shimano CN-HG701 chain, 11-34 cassette "
            "replaced, brake pads renewed front and rear, and the shift cables rerouted. Total "
            "cost 238 euros, of which 95 euros was labour. According to the mechanic, tyre "
            "pressure is 5.5 bar front and 6 bar rear with 28 mm tyres. The chain should be "
            "checked after about 3,000 km; the odometer is now at 8,420 km. Next service in "
            "autumn."
        ),
        "changed": (
            "Das Rennrad (Canyon Endurace CF 7, Baujahr 2021) war am 9. März zur Inspektion bei "
            "Radhaus Weber in der Gartenstraße. Gemacht wurden: neue Kette Shimano CN-HG701, "
            "Kassette 11-34 getauscht, Bremsbeläge vorne und hinten erneuert und die Schaltzüge "
            "neu verlegt. Kosten insgesamt 312 Euro, davon 95 Euro Arbeitszeit. Reifendruck laut "
            "Mechaniker 5,5 bar vorne und 6 bar hinten bei 28-mm-Reifen. Die Kette soll nach etwa "
            "3.000 km geprüft werden, der Kilometerstand liegt jetzt bei 9.870 km. Nächste "
            "Inspektion im Herbst."
        ),
        "sibling": (
            "Radtour an der Mosel: Von Trier nach Koblenz in 4 Etappen, insgesamt etwa 195 km, "
            "Start am 8. Juni. Übernachtungen in Bernkastel-Kues, Traben-Trarbach und Cochem sind "
            "gebucht, jeweils Doppelzimmer mit Frühstück. Das Gepäck transportiert Moselradreisen "
            "für 39 Euro pro Person. Zurück geht es mit dem Regionalexpress, Fahrradkarte für 6 "
            "Euro nicht vergessen."
        ),
    },
    {
        "lang": "en",
        "topic": "OKR review",
        "title": "Q1 OKR review of the growth team",
        "content": (
            "Q1 OKR review for the growth team, held on 4 April with Hannah, Luca and Mei. "
            "Objective: make self-serve signup the main acquisition channel. KR1, weekly signups "
            "from 1,800 to 2,500: reached 2,310 (92 percent). KR2, trial-to-paid conversion from "
            "4.1 to 5.5 percent: reached 4.9 percent. KR3, launch the onboarding checklist: done "
            "on 27 February. Overall score 0.7. Decisions: the referral programme is dropped for "
            "Q2, and KR2 carries over with a target of 5.5 percent by the end of June. Next review "
            "on 3 July."
        ),
        "paraphrase": (
            "Hannah, Luca and Mei went through the growth team's Q1 OKRs on 4 April. The objective "
            "was for self-serve signup to become our main acquisition channel. Weekly signups "
            "(KR1) were meant to rise from 1,800 to 2,500 and ended at 2,310, which is 92 percent "
            "of the goal. Trial-to-paid conversion (KR2) was supposed to go from 4.1 to 5.5 "
            "percent and landed at 4.9 percent. The onboarding checklist (KR3) went live on 27 "
            "February. That gives an overall score of 0.7. There will be no referral programme in "
            "Q2, and KR2 rolls over, still aiming at 5.5 percent by the end of June. We meet again "
            "on 3 July."
        ),
        "translation": (
            "Q1-OKR-Review des Growth-Teams am 4. April mit Hannah, Luca und Mei. Ziel: "
            "Self-Service-Registrierung soll der wichtigste Akquisekanal werden. KR1, wöchentliche "
            "Registrierungen von 1.800 auf 2.500: erreicht 2.310 (92 Prozent). KR2, Conversion von "
            "Testphase zu zahlend von 4,1 auf 5,5 Prozent: erreicht 4,9 Prozent. KR3, "
            "Onboarding-Checkliste starten: erledigt am 27. Februar. Gesamtwert 0,7. "
            "Entscheidungen: Das Empfehlungsprogramm entfällt in Q2, und KR2 wird mit dem Ziel 5,5 "
            "Prozent bis Ende Juni übernommen. Nächstes Review am 3. Juli."
        ),
        "changed": (
            "Q2 OKR review for the growth team, held on 3 July with Hannah, Luca and Mei. "
            "Objective: make self-serve signup the main acquisition channel. KR1, weekly signups "
            "from 2,310 to 2,800: reached 2,650 (95 percent). KR2, trial-to-paid conversion from "
            "4.9 to 5.5 percent: reached 5.6 percent. KR3, ship the pricing calculator: slipped to "
            "Q3. Overall score 0.8. Decisions: the referral programme comes back in Q3 with a "
            "budget of 20,000 EUR, and KR1 carries over with a target of 3,000 weekly signups. "
            "Next review on 2 October."
        ),
        "sibling": (
            "The pricing page A/B test ran from 11 to 25 March. Variant B showed annual prices "
            "first with a '2 months free' badge. Each arm had about 18,400 visitors. The share of "
            "annual plans went from 22 to 31 percent, while overall conversion stayed flat at 3.2 "
            "percent. Variant B was rolled out to 100 percent of traffic on 28 March. Mei did the "
            "analysis in Amplitude."
        ),
    },
    {
        "lang": "de",
        "topic": "Hausratversicherung",
        "title": "Hausratversicherung: Vertrag und Wasserschaden",
        "content": (
            "Die Hausratversicherung läuft bei der HUK-Coburg, die Vertragsunterlagen liegen im "
            "Ordner „Versicherungen“. Versicherungssumme 65.000 Euro für 92 Quadratmeter, "
            "Jahresbeitrag 118,40 Euro, fällig jeweils am 1. Januar, Selbstbeteiligung 150 Euro. "
            "Fahrraddiebstahl ist bis 1.500 Euro mitversichert, aber nur, wenn das Rad "
            "angeschlossen war. Am 18. Oktober haben wir den Wasserschaden in der Küche gemeldet, "
            "Schadennummer 2023-88412; der Gutachter kommt am 25. Oktober. Die Kündigungsfrist "
            "beträgt drei Monate zum Ablauf."
        ),
        "paraphrase": (
            "Unser Hausrat ist bei der HUK-Coburg versichert; alles Schriftliche steckt im Ordner "
            "„Versicherungen“. Abgesichert sind 65.000 Euro bei 92 Quadratmetern Wohnfläche, der "
            "Beitrag von 118,40 Euro wird einmal im Jahr zum 1. Januar abgebucht, und 150 Euro "
            "tragen wir pro Schaden selbst. Wird ein Fahrrad gestohlen, zahlt die Versicherung bis "
            "1.500 Euro, sofern es abgeschlossen war. Den Wasserschaden in der Küche haben wir am "
            "18. Oktober unter der Schadennummer 2023-88412 gemeldet, und am 25. Oktober schaut "
            "sich ein Gutachter das an. Kündigen kann man mit drei Monaten Frist zum Vertragsende."
        ),
        "translation": (
            "The household contents insurance is with HUK-Coburg; the contract documents are in "
            "the folder 'Insurance'. Sum insured 65,000 euros for 92 square metres, annual premium "
            "118.40 euros, due each year on 1 January, deductible 150 euros. Bicycle theft is "
            "covered up to 1,500 euros, but only if the bike was locked to something. On 18 "
            "October we reported the water damage in the kitchen, claim number 2023-88412; the "
            "assessor comes on 25 October. The notice period is three months before the end of the "
            "term."
        ),
        "changed": (
            "Nachtrag zur Hausratversicherung bei der HUK-Coburg, Unterlagen im Ordner "
            "„Versicherungen“: Der Gutachter war am 25. Oktober da und hat den Wasserschaden in "
            "der Küche (Schadennummer 2023-88412) auf 2.340 Euro geschätzt. Nach Abzug der "
            "Selbstbeteiligung von 150 Euro zahlt die Versicherung 2.190 Euro, die Überweisung kam "
            "am 8. November. Der Jahresbeitrag steigt ab 1. Januar wegen des Schadens auf 131,90 "
            "Euro. Versicherungssumme bleibt 65.000 Euro für 92 Quadratmeter. Die Kündigungsfrist "
            "beträgt drei Monate zum Ablauf."
        ),
        "sibling": (
            "Private Haftpflichtversicherung bei der Ergo, Familientarif mit Partnerin und Kind. "
            "Deckungssumme 10 Millionen Euro pauschal, Jahresbeitrag 64 Euro, keine "
            "Selbstbeteiligung. Der Verlust fremder Schlüssel ist bis 20.000 Euro mitversichert, "
            "das betrifft auch den Büroschlüssel. Gefälligkeitsschäden sind bis 5.000 Euro drin. "
            "Vertrag verlängert sich jedes Jahr am 1. April automatisch."
        ),
    },
    {
        "lang": "en",
        "topic": "conference trip",
        "title": "Trip to DataConf Amsterdam in June",
        "content": (
            "Travel plan for DataConf Amsterdam. Flight KL1778 from Hamburg on 10 June, departing "
            "18:40 and arriving 19:55; return flight KL1781 on 13 June at 20:15. Hotel: Motel One "
            "Amsterdam-Waterlooplein, 3 nights at 149 EUR per night, booking reference AMS-55190. "
            "The conference ticket (early bird, 690 EUR) is paid by the company and was approved "
            "by Stefan on 2 March. My talk 'Incremental models in dbt' is on 12 June at 14:30 in "
            "room B2, 30 minutes. The train from Schiphol to Amsterdam Centraal takes 17 minutes."
        ),
        "paraphrase": (
            "Here is how the DataConf Amsterdam trip looks. I fly out of Hamburg on 10 June with "
            "KL1778, leaving at 18:40 and landing at 19:55, and come back on 13 June with KL1781 "
            "at 20:15. For the 3 nights I am at Motel One Amsterdam-Waterlooplein, 149 EUR a "
            "night, reference AMS-55190. Stefan approved on 2 March that the company covers the "
            "690 EUR early bird ticket. On 12 June at 14:30 I give my 30-minute talk, 'Incremental "
            "models in dbt', in room B2. Getting from Schiphol to Amsterdam Centraal by train is a "
            "17-minute ride."
        ),
        "translation": (
            "Reiseplan für die DataConf Amsterdam. Flug KL1778 ab Hamburg am 10. Juni, Abflug "
            "18:40 Uhr, Ankunft 19:55 Uhr; Rückflug KL1781 am 13. Juni um 20:15 Uhr. Hotel: Motel "
            "One Amsterdam-Waterlooplein, 3 Nächte zu 149 EUR pro Nacht, Buchungsnummer AMS-55190. "
            "Das Konferenzticket (Frühbucher, 690 EUR) zahlt die Firma, Stefan hat es am 2. März "
            "genehmigt. Mein Vortrag „Incremental models in dbt“ ist am 12. Juni um 14:30 Uhr in "
            "Raum B2 und dauert 30 Minuten. Der Zug von Schiphol nach Amsterdam Centraal braucht "
            "17 Minuten."
        ),
        "changed": (
            "Travel plan for DataConf Amsterdam. Flight KL1778 from Hamburg on 10 June, departing "
            "18:40 and arriving 19:55; return flight KL1781 on 13 June at 20:15. Hotel: Motel One "
            "Amsterdam-Waterlooplein, 3 nights at 149 EUR per night, booking reference AMS-55190. "
            "The conference ticket (early bird, 690 EUR) is paid by the company and was approved "
            "by Stefan on 2 March. My talk 'Incremental models in dbt' moved to 13 June at 11:00 "
            "in room C1, 30 minutes. The train from Schiphol to Amsterdam Centraal takes 17 "
            "minutes."
        ),
        "sibling": (
            "Travel expense rules since January: hotels are capped at 160 EUR per night in Europe "
            "and 220 EUR in London and Zurich. The per diem for a full day in Germany is 28 EUR. "
            "Flights under 6 hours are economy only. All receipts must be uploaded to Pleo within "
            "14 days of returning, and trips over 1,500 EUR need approval from the department head "
            "before booking."
        ),
    },
    {
        "lang": "en",
        "topic": "feature flag rollout",
        "title": "Rollout plan for checkout-v2 flag",
        "content": (
            "Rollout plan for the new checkout flow behind the LaunchDarkly flag checkout-v2: 5 "
            "percent of traffic on 6 May, 25 percent on 9 May and 100 percent on 14 May, provided "
            "the error rate stays below 0.5 percent and conversion is no more than 1 point below "
            "control. Kill switch: turning the flag off takes effect within 30 seconds. B2B "
            "accounts and customers in Japan stay excluded until JCB card support ships. Owner is "
            "Nadia Rahman; the Grafana dashboard 'Checkout v2' tracks both metrics."
        ),
        "paraphrase": (
            "The new checkout flow sits behind checkout-v2 in LaunchDarkly and will be opened up "
            "in three steps: 6 May to 5 percent of traffic, 9 May to 25 percent, 14 May to 100 "
            "percent. Each step depends on two conditions: errors under 0.5 percent, and "
            "conversion at most 1 point worse than control. Should anything go wrong, switching "
            "the flag off works within 30 seconds. Until JCB cards are supported, Japanese "
            "customers are left out, as are all B2B accounts. Nadia Rahman is responsible, and "
            "both metrics are on the Grafana dashboard 'Checkout v2'."
        ),
        "translation": (
            "Rolloutplan für den neuen Checkout hinter dem LaunchDarkly-Flag checkout-v2: 5 "
            "Prozent des Traffics am 6. Mai, 25 Prozent am 9. Mai und 100 Prozent am 14. Mai, "
            "sofern die Fehlerrate unter 0,5 Prozent bleibt und die Conversion höchstens 1 "
            "Prozentpunkt unter der Kontrollgruppe liegt. Notschalter: Das Abschalten des Flags "
            "wirkt innerhalb von 30 Sekunden. B2B-Konten und Kunden in Japan bleiben "
            "ausgeschlossen, bis die Unterstützung für JCB-Karten live ist. Verantwortlich ist "
            "Nadia Rahman; das Grafana-Dashboard „Checkout v2“ zeigt beide Kennzahlen."
        ),
        "changed": (
            "Rollout plan for the new checkout flow behind the LaunchDarkly flag checkout-v2: 10 "
            "percent of traffic on 6 May, 25 percent on 9 May and 100 percent on 14 May, provided "
            "the error rate stays below 1.0 percent and conversion is no more than 1 point below "
            "control. Kill switch: turning the flag off takes effect within 30 seconds. B2B "
            "accounts and customers in Japan stay excluded until JCB card support ships. Owner is "
            "Nadia Rahman; the Grafana dashboard 'Checkout v2' tracks both metrics."
        ),
        "sibling": (
            "Feature flag hygiene: any LaunchDarkly flag that has been at 100 percent for more "
            "than 90 days must be removed from code and archived. A monthly report built from code "
            "references lists stale flags; the April report counted 43 flags, 12 of them stale. "
            "The owner of a flag is whoever created it, and the team lead reassigns ownership when "
            "someone leaves."
        ),
    },
    {
        "lang": "de",
        "topic": "Kinderarzt Vorsorge",
        "title": "Emmas U7 und Impfung beim Kinderarzt",
        "content": (
            "Die U7 für Emma (geboren am 12. März 2022) ist bei Kinderärztin Dr. Sommer am 21. "
            "März um 15:15 Uhr. Mitbringen: gelbes Untersuchungsheft, Impfpass und "
            "Versichertenkarte. Beim selben Termin soll die zweite MMRV-Impfung gegen Masern, "
            "Mumps, Röteln und Windpocken gemacht werden. Zuletzt wog Emma 11,8 kg bei 86 cm. Den "
            "Ausschlag am linken Bein ansprechen, der seit Anfang Februar kommt und geht. Praxis "
            "unter 030 7712 540, offene Sprechstunde montags und donnerstags von 8 bis 10 Uhr."
        ),
        "paraphrase": (
            "Emma, geboren am 12. März 2022, hat am 21. März um 15:15 Uhr ihre U7 bei Dr. Sommer, "
            "unserer Kinderärztin. Ins Gepäck gehören das gelbe Heft, der Impfpass und die "
            "Versichertenkarte. Gleich mit erledigt werden soll die zweite MMRV-Impfung, also "
            "Masern, Mumps, Röteln und Windpocken. Bei der letzten Messung hatte sie 11,8 kg und "
            "86 cm. Außerdem fragen wir nach der Stelle am linken Bein, die seit Anfang Februar "
            "immer wieder auftaucht. Telefonisch erreicht man die Praxis unter 030 7712 540; ohne "
            "Termin geht es montags und donnerstags zwischen 8 und 10 Uhr."
        ),
        "translation": (
            "Emma's U7 check-up (born 12 March 2022) is with paediatrician Dr. Sommer on 21 March "
            "at 15:15. Bring the yellow check-up booklet, the vaccination record and the insurance "
            "card. The second MMRV vaccination against measles, mumps, rubella and chickenpox "
            "should be given at the same appointment. Emma last weighed 11.8 kg at 86 cm. Mention "
            "the rash on her left leg that has come and gone since early February. The practice is "
            "at 030 7712 540; open consultation hours are Mondays and Thursdays from 8 to 10."
        ),
        "changed": (
            "Nachtrag zur U7 von Emma (geboren am 12. März 2022) bei Kinderärztin Dr. Sommer am "
            "21. März: Die zweite MMRV-Impfung gegen Masern, Mumps, Röteln und Windpocken wurde "
            "verschoben, weil Emma 38,4 °C Fieber hatte. Neuer Impftermin ist am 4. April um 9:00 "
            "Uhr. Emma wiegt jetzt 12,1 kg bei 87 cm. Der Ausschlag am linken Bein ist laut Dr. "
            "Sommer eine leichte Neurodermitis-Stelle, dafür gibt es eine Creme mit 5 Prozent "
            "Urea. Praxis unter 030 7712 540, offene Sprechstunde montags und donnerstags von 8 "
            "bis 10 Uhr."
        ),
        "sibling": (
            "Hausapotheke für Emma, Stand Januar: Ibuprofen-Fiebersaft 2 Prozent, bei ihren 12 kg "
            "2,5 ml pro Gabe, höchstens dreimal am Tag mit mindestens 6 Stunden Abstand. "
            "Nasenspray für Kleinkinder mit 0,025 Prozent, höchstens 7 Tage am Stück. Dazu ein "
            "digitales Fieberthermometer, Kühlpads im Gefrierfach und Pflaster mit Tiermotiven. "
            "Ablaufdaten jedes halbe Jahr prüfen, das nächste Mal im Juli."
        ),
    },
    {
        "lang": "en",
        "topic": "marathon training",
        "title": "Berlin Marathon training plan",
        "content": (
            "Training plan for the Berlin Marathon on 29 September. Goal time 3:45, which is about "
            "5:20 per km. It is a 16-week plan starting 10 June with four runs a week: Tuesday "
            "intervals (6 x 800 m at 4:40/km), Thursday tempo run of 8-10 km, Saturday easy 6 km "
            "and the Sunday long run, building from 18 km to a peak of 32 km on 1 September. "
            "Weekly mileage peaks at 62 km, then three weeks of taper. Shoes: Brooks Ghost 15, "
            "replaced after 700 km. On long runs, one gel every 40 minutes from km 10."
        ),
        "paraphrase": (
            "The target is the Berlin Marathon on 29 September in 3:45, so roughly 5:20 per "
            "kilometre. Preparation lasts 16 weeks from 10 June, with four sessions each week. "
            "Tuesdays are for intervals, 6 x 800 m at 4:40/km; Thursdays bring a tempo run over 8 "
            "to 10 km; Saturdays an easy 6 km. The Sunday long run grows from 18 km up to 32 km, "
            "reached on 1 September. At the peak I run 62 km a week, and the last three weeks are "
            "a taper. I run in Brooks Ghost 15 and swap them after 700 km. From km 10 of every "
            "long run I take a gel every 40 minutes."
        ),
        "translation": (
            "Trainingsplan für den Berlin-Marathon am 29. September. Zielzeit 3:45, das sind etwa "
            "5:20 pro Kilometer. Es ist ein 16-Wochen-Plan ab dem 10. Juni mit vier Läufen pro "
            "Woche: dienstags Intervalle (6 x 800 m in 4:40/km), donnerstags ein Tempolauf über 8 "
            "bis 10 km, samstags locker 6 km und sonntags der lange Lauf, der von 18 km bis zum "
            "Höchstwert von 32 km am 1. September gesteigert wird. Der Wochenumfang erreicht "
            "maximal 62 km, danach folgen drei Wochen Tapering. Schuhe: Brooks Ghost 15, Austausch "
            "nach 700 km. Bei langen Läufen ab km 10 alle 40 Minuten ein Gel."
        ),
        "changed": (
            "Training plan for the Berlin Marathon on 29 September. Goal time 3:30, which is about "
            "4:59 per km. It is a 16-week plan starting 10 June with four runs a week: Tuesday "
            "intervals (6 x 800 m at 4:40/km), Thursday tempo run of 8-10 km, Saturday easy 6 km "
            "and the Sunday long run, building from 18 km to a peak of 35 km on 1 September. "
            "Weekly mileage peaks at 62 km, then three weeks of taper. Shoes: Brooks Ghost 15, "
            "replaced after 700 km. On long runs, one gel every 40 minutes from km 10."
        ),
        "sibling": (
            "Strength routine at the FitX gym in Friedrichshain, Mondays and Fridays, 45 minutes "
            "each: back squats 3 x 8 at 60 kg, Romanian deadlifts 3 x 8 at 50 kg, split squats 3 x "
            "10 per leg with 12 kg dumbbells, and a 3-minute plank at the end. Increase weights by "
            "2.5 kg once all sets feel easy. Skip the Friday session in the week of a race."
        ),
    },
    {
        "lang": "en",
        "topic": "dns migration",
        "title": "Moving DNS zones from GoDaddy to Cloudflare",
        "content": (
            "We are moving DNS for example-shop.com and 14 other zones from GoDaddy to Cloudflare, "
            "decided by Ops on 18 January. The zones were exported as BIND files and imported on "
            "22 January, and TTLs are lowered to 300 seconds 48 hours before the switch. The "
            "nameserver change at the registrar is planned for 29 January at 07:00 CET. Before "
            "switching, verify the Google Workspace MX records and the SPF and DKIM TXT records "
            "with dig against the Cloudflare nameservers. DNSSEC is re-enabled 7 days after the "
            "move. Owner: Felix Brandt."
        ),
        "paraphrase": (
            "On 18 January Ops decided that example-shop.com, along with 14 further zones, leaves "
            "GoDaddy for Cloudflare. On 22 January we exported every zone as a BIND file and "
            "imported it on the Cloudflare side. Two days (48 hours) ahead of the cutover the TTLs "
            "drop to 300 seconds. The registrar gets the new nameservers on 29 January at 07:00 "
            "CET. Beforehand, dig against the Cloudflare nameservers must confirm the MX records "
            "for Google Workspace plus the SPF and DKIM TXT entries. 7 days after the move we "
            "switch DNSSEC back on. Felix Brandt is in charge."
        ),
        "translation": (
            "Wir ziehen das DNS für example-shop.com und 14 weitere Zonen von GoDaddy zu "
            "Cloudflare um, entschieden vom Ops-Team am 18. Januar. Die Zonen wurden als "
            "BIND-Dateien exportiert und am 22. Januar importiert, und die TTLs werden 48 Stunden "
            "vor der Umstellung auf 300 Sekunden gesenkt. Der Nameserver-Wechsel beim Registrar "
            "ist für den 29. Januar um 07:00 Uhr MEZ geplant. Vor dem Umschalten die MX-Einträge "
            "für Google Workspace sowie die SPF- und DKIM-TXT-Einträge mit dig gegen die "
            "Cloudflare-Nameserver prüfen. DNSSEC wird 7 Tage nach dem Umzug wieder aktiviert. "
            "Verantwortlich: Felix Brandt."
        ),
        "changed": (
            "Update on moving DNS for example-shop.com and 14 other zones from GoDaddy to "
            "Cloudflare: the nameserver change on 29 January at 07:00 CET was rolled back at 09:20 "
            "after mail delivery failed for about 2 hours. The DKIM TXT record for the Google "
            "Workspace selector had been truncated during the BIND import. The record was fixed by "
            "hand and checked with dig against the Cloudflare nameservers. New date for the "
            "switch: 5 February at 07:00 CET, with TTLs at 300 seconds from 3 February. DNSSEC is "
            "re-enabled 7 days after the move. Owner: Felix Brandt."
        ),
        "sibling": (
            "Inside the clusters, service discovery runs on CoreDNS with a forward rule that sends "
            "corp.internal to the two resolvers at 10.20.0.2 and 10.20.0.3. The Route 53 private "
            "hosted zone corp.internal holds records for the VPN gateway, the databases and the "
            "build farm. Negative answers are cached for 30 seconds, positive answers for up to 5 "
            "minutes. NodeLocal DNSCache has been enabled on all nodes since March."
        ),
    },
    {
        "lang": "de",
        "topic": "Nebenkostenabrechnung",
        "title": "Nebenkostenabrechnung 2023 der Hausverwaltung",
        "content": (
            "Die Nebenkostenabrechnung 2023 von der Hausverwaltung Brandl & Söhne kam am 14. Mai. "
            "Abrechnungszeitraum 1. Januar bis 31. Dezember 2023, Wohnung im 3. OG links mit 78 "
            "Quadratmetern. Vorauszahlungen 2.640 Euro (12 mal 220 Euro), tatsächliche Kosten "
            "2.918,60 Euro, also eine Nachzahlung von 278,60 Euro, fällig bis zum 15. Juni. "
            "Größter Posten ist die Heizung mit 1.402 Euro. Ab Juli steigt die monatliche "
            "Vorauszahlung auf 245 Euro. Einwände sind innerhalb von 12 Monaten möglich, "
            "Belegeinsicht bei der Verwaltung in der Schillerstraße 4 nach Vereinbarung."
        ),
        "paraphrase": (
            "Am 14. Mai lag die Abrechnung der Nebenkosten für 2023 im Briefkasten, verschickt von "
            "der Hausverwaltung Brandl & Söhne. Sie betrifft das ganze Jahr, 1. Januar bis 31. "
            "Dezember, und unsere 78 Quadratmeter im 3. Stock links. Gezahlt hatten wir monatlich "
            "220 Euro, zusammen 2.640 Euro; angefallen sind aber 2.918,60 Euro. Nachzuzahlen sind "
            "daher 278,60 Euro, und zwar bis 15. Juni. Am teuersten war mit 1.402 Euro die "
            "Heizung. Von Juli an werden 245 Euro im Monat fällig. Wer die Belege sehen will, "
            "macht einen Termin in der Schillerstraße 4; beanstanden kann man die Abrechnung 12 "
            "Monate lang."
        ),
        "translation": (
            "The 2023 service charge statement from the property management company Brandl & Söhne "
            "arrived on 14 May. Billing period 1 January to 31 December 2023, flat on the 3rd "
            "floor left with 78 square metres. Advance payments 2,640 euros (12 times 220 euros), "
            "actual costs 2,918.60 euros, so an additional payment of 278.60 euros is due by 15 "
            "June. The largest item is heating at 1,402 euros. From July the monthly advance "
            "payment rises to 245 euros. Objections are possible within 12 months; receipts can be "
            "inspected at the management office at Schillerstraße 4 by appointment."
        ),
        "changed": (
            "Die Nebenkostenabrechnung 2023 von der Hausverwaltung Brandl & Söhne kam am 14. Mai. "
            "Abrechnungszeitraum 1. Januar bis 31. Dezember 2023, Wohnung im 3. OG links mit 78 "
            "Quadratmetern. Vorauszahlungen 2.640 Euro (12 mal 220 Euro), tatsächliche Kosten "
            "3.112,40 Euro, also eine Nachzahlung von 472,40 Euro, fällig bis zum 15. Juni. "
            "Größter Posten ist die Heizung mit 1.402 Euro. Ab Juli steigt die monatliche "
            "Vorauszahlung auf 260 Euro. Einwände sind innerhalb von 12 Monaten möglich, "
            "Belegeinsicht bei der Verwaltung in der Schillerstraße 4 nach Vereinbarung."
        ),
        "sibling": (
            "Mietvertrag für die Wohnung in der Körnerstraße seit 1. August 2019, vereinbart ist "
            "eine Staffelmiete: Die Kaltmiete steigt jedes Jahr zum 1. August um 25 Euro und liegt "
            "derzeit bei 890 Euro. Die Kaution von 2.400 Euro liegt auf einem Mietkautionskonto "
            "bei der Postbank. Kündigungsfrist für uns drei Monate. Vermieter ist Herr Albrecht, "
            "kleinere Reparaturen bis 100 Euro zahlen wir selbst."
        ),
    },
    {
        "lang": "en",
        "topic": "houseplant care",
        "title": "Care notes for the houseplants",
        "content": (
            "Care notes for the plants in the flat. The Monstera deliciosa in the living room gets "
            "water every 10 days, once the top 3 cm of soil are dry, and from April to September "
            "every second watering includes 5 ml of green plant fertiliser per litre. It was "
            "repotted into a 30 cm pot on 6 April. The Calathea in the bedroom only gets filtered "
            "water, needs humidity above 50 percent and no direct sun. The olive tree on the "
            "balcony comes inside when nights drop below 5 °C, usually from mid-November."
        ),
        "paraphrase": (
            "How to look after the plants at home: in the living room, the Monstera deliciosa is "
            "watered every 10 days, but only after the upper 3 cm of soil have dried out. Between "
            "April and September, add 5 ml of green plant fertiliser per litre at every second "
            "watering. Since 6 April it has lived in a 30 cm pot. The bedroom Calathea takes "
            "filtered water only, wants more than 50 percent humidity and must stay out of direct "
            "sunlight. As soon as nights fall under 5 °C, normally from the middle of November, "
            "the balcony olive tree is brought indoors."
        ),
        "translation": (
            "Pflegehinweise für die Pflanzen in der Wohnung. Die Monstera deliciosa im Wohnzimmer "
            "wird alle 10 Tage gegossen, sobald die oberen 3 cm der Erde trocken sind, und von "
            "April bis September kommen bei jedem zweiten Gießen 5 ml Grünpflanzendünger pro Liter "
            "dazu. Sie wurde am 6. April in einen 30-cm-Topf umgetopft. Die Calathea im "
            "Schlafzimmer bekommt nur gefiltertes Wasser, braucht über 50 Prozent Luftfeuchtigkeit "
            "und keine direkte Sonne. Der Olivenbaum auf dem Balkon kommt nach drinnen, wenn die "
            "Nächte unter 5 °C fallen, meist ab Mitte November."
        ),
        "changed": (
            "Update on the plants in the flat, 20 May: the Monstera deliciosa in the living room "
            "got yellow leaves after the repotting on 6 April, and the roots had started to rot. "
            "It is now back in a smaller 27 cm pot with extra perlite and only gets water every 14 "
            "days, once the top 5 cm of soil are dry; no fertiliser until July. The Calathea moved "
            "from the bedroom to the bathroom, where humidity stays above 60 percent. The olive "
            "tree on the balcony comes inside when nights drop below 5 °C, usually from "
            "mid-November."
        ),
        "sibling": (
            "Balcony herb boxes, planted on 28 April: basil, thyme, rosemary, flat parsley and "
            "chives in two 80 cm boxes with herb soil. Basil goes in the sunniest spot and is "
            "pinched above the second leaf pair so it branches. Rosemary and thyme like it dry, so "
            "water them only twice a week; parsley and chives need water daily in July. Rosemary "
            "overwinters in the stairwell."
        ),
    },
    {
        "lang": "de",
        "topic": "CI-Pipeline",
        "title": "CI-Pipeline im Monorepo: Aufbau und Regeln",
        "content": (
            "Die CI-Pipeline für das Monorepo läuft auf GitLab mit vier eigenen Runnern, jeweils 8 "
            "vCPU und 32 GB RAM. Stufen: lint, test, build und deploy. Die Testphase ist auf 6 "
            "parallele Jobs aufgeteilt und dauert im Schnitt 11 Minuten. Docker-Images baut "
            "Kaniko, sie landen mit dem Commit-SHA als Tag in registry.intern.example.de. Der "
            "Cache für node_modules und pip liegt in MinIO und wird 7 Tage aufbewahrt. Nach "
            "Staging wird bei jedem Merge in main automatisch deployt, nach Produktion nur manuell "
            "und nur zwischen 9 und 16 Uhr. Zuständig ist Markus Lehmann."
        ),
        "paraphrase": (
            "Für das Monorepo nutzen wir GitLab CI auf vier selbst betriebenen Runnern mit je 8 "
            "vCPU und 32 GB Arbeitsspeicher. Die Pipeline besteht aus den Stufen lint, test, build "
            "und deploy. Die Tests laufen verteilt in 6 parallelen Jobs, was durchschnittlich 11 "
            "Minuten braucht. Gebaut werden die Docker-Images mit Kaniko und dann nach "
            "registry.intern.example.de geschoben, getaggt mit dem SHA des Commits. "
            "Zwischengespeicherte node_modules- und pip-Pakete liegen 7 Tage lang in MinIO. Jeder "
            "Merge in main geht von selbst nach Staging; Produktion wird nur per Hand und nur "
            "zwischen 9 und 16 Uhr ausgerollt. Ansprechpartner: Markus Lehmann."
        ),
        "translation": (
            "The CI pipeline for the monorepo runs on GitLab with four self-hosted runners, each "
            "with 8 vCPUs and 32 GB RAM. Stages: lint, test, build and deploy. The test stage is "
            "split into 6 parallel jobs and takes 11 minutes on average. Kaniko builds the Docker "
            "images, which go to registry.intern.example.de tagged with the commit SHA. The cache "
            "for node_modules and pip lives in MinIO and is kept for 7 days. Every merge into main "
            "deploys to staging automatically; production is deployed only manually and only "
            "between 9:00 and 16:00. Markus Lehmann is responsible."
        ),
        "changed": (
            "Die CI-Pipeline für das Monorepo läuft auf GitLab mit vier eigenen Runnern, jeweils 8 "
            "vCPU und 32 GB RAM. Stufen: lint, test, build und deploy. Die Testphase ist auf 8 "
            "parallele Jobs aufgeteilt und dauert im Schnitt 8 Minuten. Docker-Images baut Kaniko, "
            "sie landen mit dem Commit-SHA als Tag in registry.intern.example.de. Der Cache für "
            "node_modules und pip liegt in MinIO und wird 14 Tage aufbewahrt. Nach Staging wird "
            "bei jedem Merge in main automatisch deployt, nach Produktion nur manuell und nur "
            "zwischen 9 und 16 Uhr. Zuständig ist Markus Lehmann."
        ),
        "sibling": (
            "Regeln für Code-Reviews im Team: Jeder Merge Request braucht zwei Freigaben, davon "
            "eine aus dem Team, dem der Code laut CODEOWNERS gehört. Mehr als 400 geänderte Zeilen "
            "bitte aufteilen. Reviews sollen innerhalb eines Arbeitstags erledigt sein, bei "
            "Hotfixes innerhalb einer Stunde. Kommentare mit „nit:“ sind Vorschläge und blockieren "
            "den Merge nicht."
        ),
    },
    {
        "lang": "en",
        "topic": "dinner party",
        "title": "Dinner party menu for 12 October",
        "content": (
            "Dinner party on Saturday 12 October for 8 people, starting at 19:00. Starter: burrata "
            "with roasted peaches. Main: slow-roasted lamb shoulder (2.4 kg, 5 hours at 150 °C) "
            "with freekeh and a yoghurt sauce. Dessert: Basque cheesecake, baked the day before. "
            "Tom is vegetarian and gets stuffed aubergine instead of the lamb. Wine: 4 bottles of "
            "Rioja Crianza and 2 of Albariño. Budget about 180 EUR. Butcher Meyer is holding the "
            "lamb; pick it up on Friday after 16:00."
        ),
        "paraphrase": (
            "8 guests are coming for dinner on Saturday 12 October, from 19:00. We open with "
            "burrata and roasted peaches. The main course is a 2.4 kg lamb shoulder, roasted "
            "slowly for 5 hours at 150 °C and served with freekeh and yoghurt sauce. For dessert "
            "there is a Basque cheesecake, which has to be baked a day ahead. Since Tom doesn't "
            "eat meat, he gets a stuffed aubergine in place of the lamb. To drink: 4 bottles of "
            "Rioja Crianza plus 2 of Albariño. The whole evening should cost around 180 EUR. The "
            "lamb is reserved at Meyer's, the butcher, for collection on Friday after 16:00."
        ),
        "translation": (
            "Abendessen mit Gästen am Samstag, 12. Oktober, für 8 Personen, Beginn um 19:00 Uhr. "
            "Vorspeise: Burrata mit gerösteten Pfirsichen. Hauptgang: langsam geschmorte "
            "Lammschulter (2,4 kg, 5 Stunden bei 150 °C) mit Freekeh und Joghurtsoße. Nachtisch: "
            "Baskischer Käsekuchen, am Vortag gebacken. Tom ist Vegetarier und bekommt statt des "
            "Lamms eine gefüllte Aubergine. Wein: 4 Flaschen Rioja Crianza und 2 Flaschen "
            "Albariño. Budget etwa 180 EUR. Metzger Meyer hält das Lamm zurück; Abholung am "
            "Freitag nach 16:00 Uhr."
        ),
        "changed": (
            "Dinner party on Saturday 12 October, now for 10 people, starting at 19:00. Starter: "
            "burrata with roasted peaches. Main: the lamb is off the menu because Ana doesn't eat "
            "red meat, so it is two whole roasted sea bream (about 1.2 kg each, 35 minutes at 200 "
            "°C) with freekeh and a yoghurt sauce. Dessert: Basque cheesecake, baked the day "
            "before. Tom is vegetarian and gets stuffed aubergine. Wine: 6 bottles of Albariño, no "
            "Rioja. Budget about 230 EUR. The fish is ordered at the market stall for Saturday "
            "morning."
        ),
        "sibling": (
            "Weekly meal prep on Sundays: roast 2 kg of chicken thighs with paprika and garlic at "
            "200 °C for 40 minutes, cook 600 g of basmati rice and roast two trays of vegetables. "
            "That makes 8 lunch boxes for the week, 4 for me and 4 for Jana. Cooked chicken keeps "
            "4 days in the fridge, so the Thursday and Friday boxes go into the freezer. Shopping "
            "is done Saturdays at the Turkish market."
        ),
    },
    {
        "lang": "en",
        "topic": "log retention",
        "title": "Log retention rules agreed with Security",
        "content": (
            "Log retention settings agreed with Security on 7 February. Application logs are "
            "shipped by Fluent Bit to Loki and kept 30 days in the hot tier, then archived to S3 "
            "Glacier for 1 year. Audit logs (logins, permission changes, data exports) are kept "
            "for 7 years in a separate bucket with object lock in compliance mode. Load balancer "
            "access logs are kept 90 days. Personal data such as IP addresses must be "
            "pseudonymised after 14 days. The Loki ingestion limit per tenant is 20 MB/s. "
            "Estimated monthly cost: 1,350 USD."
        ),
        "paraphrase": (
            "On 7 February we and Security agreed how long logs are kept. Fluent Bit sends "
            "application logs to Loki, where they stay in the hot tier for 30 days before moving "
            "to S3 Glacier for 1 year. Audit logs, meaning logins, permission changes and data "
            "exports, live for 7 years in their own bucket, protected by object lock in compliance "
            "mode. Access logs from the load balancers are deleted after 90 days. After 14 days, "
            "personal data like IP addresses has to be pseudonymised. Each tenant may ingest at "
            "most 20 MB/s into Loki. We expect roughly 1,350 USD a month in costs."
        ),
        "translation": (
            "Mit der Security am 7. Februar vereinbarte Aufbewahrungsfristen für Logs. "
            "Anwendungslogs schickt Fluent Bit an Loki, dort bleiben sie 30 Tage im Hot-Tier und "
            "werden dann für 1 Jahr in S3 Glacier archiviert. Audit-Logs (Anmeldungen, "
            "Rechteänderungen, Datenexporte) werden 7 Jahre in einem eigenen Bucket mit Object "
            "Lock im Compliance-Modus aufbewahrt. Access-Logs der Load Balancer bleiben 90 Tage. "
            "Personenbezogene Daten wie IP-Adressen müssen nach 14 Tagen pseudonymisiert werden. "
            "Das Ingest-Limit von Loki liegt bei 20 MB/s pro Mandant. Geschätzte Kosten pro Monat: "
            "1.350 USD."
        ),
        "changed": (
            "Log retention settings agreed with Security on 7 February. Application logs are "
            "shipped by Fluent Bit to Loki and kept 14 days in the hot tier, then archived to S3 "
            "Glacier for 1 year. Audit logs (logins, permission changes, data exports) are kept "
            "for 7 years in a separate bucket with object lock in compliance mode. Load balancer "
            "access logs are kept 180 days. Personal data such as IP addresses must be "
            "pseudonymised after 14 days. The Loki ingestion limit per tenant is 20 MB/s. "
            "Estimated monthly cost: 1,350 USD."
        ),
        "sibling": (
            "Metrics stack: Prometheus scrapes every 30 seconds and ships to Thanos. Raw samples "
            "are kept for 15 days, 5-minute downsamples for 1 year and 1-hour downsamples for 3 "
            "years. Teams must keep label cardinality under 50,000 series per service; the "
            "recording rules for SLOs live in the slo-rules repo. Grafana reads from the Thanos "
            "querier at thanos-query.monitoring:9090."
        ),
    },
    {
        "lang": "de",
        "topic": "Hochbeet",
        "title": "Hochbeet im Hof: Befüllung und Bepflanzung",
        "content": (
            "Gartenplanung für das Hochbeet im Hof: 2 m lang, 1 m breit und 80 cm hoch, aus "
            "Lärchenholz. Befüllt am 13. April in Schichten, unten Äste, dann Laub und "
            "Rasenschnitt, obendrauf 300 Liter Gemüseerde. Geplant sind die Tomatensorten "
            "„Ochsenherz“ und „Black Cherry“, die nach den Eisheiligen Mitte Mai reinkommen, dazu "
            "Basilikum, 2 Zucchini und Pflücksalat. Gegossen wird morgens, bei Hitze täglich 10 "
            "Liter. Im ersten Jahr kein Dünger, weil die Schichten genug Nährstoffe liefern. "
            "Kupferne Schneckenkragen für 24 Euro sind bestellt."
        ),
        "paraphrase": (
            "Das neue Hochbeet im Hof ist aus Lärche gebaut und misst 2 m in der Länge, 1 m in der "
            "Breite und 80 cm in der Höhe. Am 13. April haben wir es schichtweise gefüllt: "
            "zuunterst Äste, darauf Laub und Rasenschnitt und als oberste Lage 300 Liter "
            "Gemüseerde. Sobald die Eisheiligen Mitte Mai vorbei sind, pflanzen wir die Tomaten "
            "„Ochsenherz“ und „Black Cherry“, außerdem Basilikum, Pflücksalat und 2 Zucchini. "
            "Wasser gibt es immer morgens, an heißen Tagen 10 Liter pro Tag. Gedüngt wird im "
            "ersten Jahr nicht, die Schichten enthalten genug Nährstoffe. Bestellt sind "
            "Schneckenkragen aus Kupfer, 24 Euro."
        ),
        "translation": (
            "Garden plan for the raised bed in the courtyard: 2 m long, 1 m wide and 80 cm high, "
            "made of larch wood. Filled on 13 April in layers: branches at the bottom, then leaves "
            "and grass clippings, and 300 litres of vegetable soil on top. Planned are the tomato "
            "varieties 'Ochsenherz' and 'Black Cherry', which go in after the Ice Saints in "
            "mid-May, plus basil, 2 courgettes and loose-leaf lettuce. Watering is done in the "
            "morning, 10 litres a day in hot weather. No fertiliser in the first year, because the "
            "layers supply enough nutrients. Copper slug collars for 24 euros have been ordered."
        ),
        "changed": (
            "Nachtrag zum Hochbeet im Hof, Ende Juli: Die Tomatensorten „Ochsenherz“ und „Black "
            "Cherry“ hatten ab dem 12. Juli Kraut- und Braunfäule, alle 6 Pflanzen mussten raus. "
            "Nächstes Jahr kommen nur resistente Sorten wie „Philovita“ ins Beet, dazu ein "
            "Regendach aus Folie für etwa 60 Euro. Die 2 Zucchini tragen dagegen gut, bisher 9 "
            "Stück, und Basilikum und Pflücksalat wachsen ordentlich. Gegossen wird morgens, bei "
            "Hitze täglich 10 Liter. Die kupfernen Schneckenkragen für 24 Euro haben sich bewährt."
        ),
        "sibling": (
            "Rasenpflege im Garten: Am 20. April vertikutiert und danach 2 kg Nachsaat „Sport und "
            "Spiel“ auf die kahlen Stellen gestreut, zwei Wochen lang täglich gewässert. Gemäht "
            "wird mit dem Akkumäher auf 4 cm Schnitthöhe, im Hochsommer auf 5 cm. Gedüngt wird "
            "zweimal im Jahr mit Langzeitdünger, Anfang Mai und Mitte September, je 3 kg für die "
            "120 Quadratmeter."
        ),
    },
    {
        "lang": "en",
        "topic": "supplier contract",
        "title": "Kestrel Packaging contract renewal on 1 July",
        "content": (
            "Our contract with Kestrel Packaging for shipping boxes renews on 1 July. Current "
            "terms: 48,000 boxes per year in three sizes, unit price 0.62 EUR for the medium size, "
            "payment 30 days net, delivery within 5 working days to the warehouse in Leipzig. "
            "Kestrel proposed a 7 percent price increase; we countered with 3 percent in exchange "
            "for a two-year term. The notice period is 90 days, so a cancellation would have to "
            "reach them by 2 April. Procurement contact: Julia Brenner. Supplier contact: Mark "
            "Devlin."
        ),
        "paraphrase": (
            "On 1 July the Kestrel Packaging contract for our shipping boxes comes up for renewal. "
            "Today we take 48,000 boxes a year across three sizes; the medium one costs 0.62 EUR "
            "apiece, invoices are due 30 days net, and Kestrel delivers to the Leipzig warehouse "
            "in no more than 5 working days. They asked for 7 percent more. Our counteroffer: 3 "
            "percent, if we sign for two years. Because the notice period is 90 days, they would "
            "need our cancellation by 2 April. Julia Brenner handles it in procurement, and Mark "
            "Devlin is the person at Kestrel."
        ),
        "translation": (
            "Unser Vertrag mit Kestrel Packaging über Versandkartons verlängert sich am 1. Juli. "
            "Aktuelle Konditionen: 48.000 Kartons pro Jahr in drei Größen, Stückpreis 0,62 EUR für "
            "die mittlere Größe, Zahlung 30 Tage netto, Lieferung innerhalb von 5 Werktagen ans "
            "Lager in Leipzig. Kestrel hat eine Preiserhöhung um 7 Prozent vorgeschlagen; wir "
            "haben mit 3 Prozent bei zwei Jahren Laufzeit dagegengehalten. Die Kündigungsfrist "
            "beträgt 90 Tage, eine Kündigung müsste also bis zum 2. April bei ihnen sein. "
            "Ansprechpartnerin im Einkauf: Julia Brenner. Ansprechpartner beim Lieferanten: Mark "
            "Devlin."
        ),
        "changed": (
            "Our contract with Kestrel Packaging for shipping boxes renews on 1 July. Current "
            "terms: 48,000 boxes per year in three sizes, unit price 0.62 EUR for the medium size, "
            "payment 30 days net, delivery within 5 working days to the warehouse in Leipzig. "
            "Kestrel proposed a 7 percent price increase; we countered with 4 percent in exchange "
            "for a two-year term. The notice period is 60 days, so a cancellation would have to "
            "reach them by 2 May. Procurement contact: Julia Brenner. Supplier contact: Mark "
            "Devlin."
        ),
        "sibling": (
            "Quotes for pallet shipping from Leipzig to Vienna, requested on 4 March: Dachser 142 "
            "EUR per pallet with 3 days transit, DB Schenker 128 EUR with 4 days, Raben 135 EUR "
            "with 3 days. We ship about 20 pallets a month. Julia prefers Dachser because of last "
            "year's delays with Schenker; the decision is due at the ops meeting on 18 March."
        ),
    },
    {
        "lang": "en",
        "topic": "component library",
        "title": "Decision: shared UI component library",
        "content": (
            "Frontend decision from 21 March: the web app moves to a shared component library "
            "built on Radix UI primitives and Tailwind CSS 3.4, published as @acme/ui in the "
            "internal npm registry. Existing Material UI 5 screens stay until they are rewritten, "
            "but no new MUI components are added. Storybook 8 documents every component, and "
            "Chromatic runs visual regression tests on each PR. Target: the 25 most used "
            "components done by the end of Q2. Design tokens come from Figma via Tokens Studio. "
            "Owner: Elif Kaya."
        ),
        "paraphrase": (
            "As of 21 March the frontend group has decided that the web app gets one shared "
            "component library, @acme/ui, hosted in our internal npm registry and built from Radix "
            "UI primitives plus Tailwind CSS 3.4. Screens written in Material UI 5 can remain "
            "until someone rewrites them; adding new MUI components is not allowed. Every "
            "component is documented in Storybook 8, and each PR goes through visual regression "
            "testing in Chromatic. By the end of Q2 the 25 components we use most should be "
            "finished. Tokens Studio pulls the design tokens out of Figma. Elif Kaya owns the "
            "effort."
        ),
        "translation": (
            "Frontend-Entscheidung vom 21. März: Die Web-App wechselt auf eine gemeinsame "
            "Komponentenbibliothek auf Basis von Radix-UI-Primitives und Tailwind CSS 3.4, "
            "veröffentlicht als @acme/ui in der internen npm-Registry. Bestehende "
            "Material-UI-5-Screens bleiben, bis sie neu geschrieben werden, neue MUI-Komponenten "
            "kommen aber nicht mehr dazu. Storybook 8 dokumentiert jede Komponente, und Chromatic "
            "führt bei jedem PR visuelle Regressionstests aus. Ziel: die 25 meistgenutzten "
            "Komponenten bis Ende Q2. Die Design-Tokens kommen über Tokens Studio aus Figma. "
            "Verantwortlich: Elif Kaya."
        ),
        "changed": (
            "Frontend update from 11 April: the web app still moves to a shared component library "
            "built on Radix UI primitives, published as @acme/ui in the internal npm registry, but "
            "we reversed the Tailwind part. Components are styled with CSS modules and design "
            "tokens as CSS variables instead of Tailwind CSS 3.4, because the team found the class "
            "lists hard to review. Existing Material UI 5 screens stay until they are rewritten. "
            "Storybook 8 documents every component. Target moved to the 20 most used components by "
            "the end of Q3. Owner: Elif Kaya."
        ),
        "sibling": (
            "Performance budget for the web app: the JavaScript for the landing route may be at "
            "most 170 KB gzipped, and LCP must stay under 2.5 seconds on the Moto G4 profile over "
            "a fast 3G connection. Lighthouse CI runs on every PR and fails the build below a "
            "performance score of 85. Third-party scripts load only after user consent and never "
            "block rendering."
        ),
    },
    {
        "lang": "de",
        "topic": "Reifenwechsel",
        "title": "Reifenwechsel am Golf im Oktober",
        "content": (
            "Reifenwechsel am VW Golf (Kennzeichen M-KL 4821) bei Autohaus Riedl, Termin am "
            "Samstag, 19. Oktober, um 9:00 Uhr. Die Winterreifen, Continental WinterContact TS 870 "
            "in 205/55 R16, lagern dort im Reifenhotel; die Einlagerung kostet 49 Euro pro Saison, "
            "der Wechsel 35 Euro. Profiltiefe beim letzten Wechsel im April: 5,5 mm vorne, 6 mm "
            "hinten. Unter 4 mm sollen neue Reifen her. Die Radschrauben nach 50 km mit 120 Nm "
            "nachziehen lassen. Außerdem steht im November die Hauptuntersuchung an."
        ),
        "paraphrase": (
            "Am Samstag, dem 19. Oktober, kommt der Golf (M-KL 4821) um 9:00 Uhr zum Reifenwechsel "
            "ins Autohaus Riedl. Dort liegen im Reifenhotel auch unsere Winterreifen, Continental "
            "WinterContact TS 870 in der Größe 205/55 R16. Für das Einlagern zahlen wir 49 Euro je "
            "Saison, für den Wechsel selbst 35 Euro. Als im April zuletzt gewechselt wurde, hatten "
            "die Reifen noch 5,5 mm Profil vorne und 6 mm hinten; sobald es weniger als 4 mm sind, "
            "kaufen wir neue. Nach 50 km werden die Radschrauben mit 120 Nm nachgezogen. Im "
            "November ist zudem die HU fällig."
        ),
        "translation": (
            "Tyre change on the VW Golf (registration M-KL 4821) at Autohaus Riedl, appointment on "
            "Saturday, 19 October, at 9:00. The winter tyres, Continental WinterContact TS 870 in "
            "205/55 R16, are stored there in the tyre hotel; storage costs 49 euros per season and "
            "the change 35 euros. Tread depth at the last change in April: 5.5 mm front, 6 mm "
            "rear. Below 4 mm we want new tyres. Have the wheel bolts retightened to 120 Nm after "
            "50 km. The general inspection (HU) is also due in November."
        ),
        "changed": (
            "Reifenwechsel am VW Golf (Kennzeichen M-KL 4821) bei Autohaus Riedl, Termin am "
            "Samstag, 26. Oktober, um 10:30 Uhr. Die Winterreifen, Continental WinterContact TS "
            "870 in 205/55 R16, lagern dort im Reifenhotel; die Einlagerung kostet 49 Euro pro "
            "Saison, der Wechsel 35 Euro. Profiltiefe beim letzten Wechsel im April: 4,5 mm vorne, "
            "6 mm hinten. Unter 4 mm sollen neue Reifen her. Die Radschrauben nach 50 km mit 120 "
            "Nm nachziehen lassen. Außerdem steht im November die Hauptuntersuchung an."
        ),
        "sibling": (
            "Kfz-Versicherung für den Golf bei der HUK24: Vollkasko mit 300 Euro "
            "Selbstbeteiligung, Teilkasko mit 150 Euro. Schadenfreiheitsklasse SF 12, "
            "Jahresbeitrag 612 Euro, abgebucht am 1. Januar. Fahrerkreis nur wir beide, beide über "
            "25 Jahre, angegebene Fahrleistung 12.000 km im Jahr. Den Kilometerstand bis Ende "
            "Januar melden, sonst wird hochgestuft."
        ),
    },
    {
        "lang": "en",
        "topic": "sleep health",
        "title": "Sleep problems and plan from Dr. Lange",
        "content": (
            "Sleep notes from the last 4 weeks with the Oura ring: average sleep 6 h 20 min, deep "
            "sleep 58 minutes, resting heart rate 56 bpm. Bedtime varies between 23:10 and 01:30, "
            "which Dr. Lange (visit on 3 September) called the main problem. The plan we agreed: "
            "fixed wake time of 06:45 including weekends, no screens after 22:30, last coffee "
            "before 14:00, and 200 mg magnesium glycinate in the evening. Check again on 1 "
            "October; if average sleep stays under 6.5 hours, she will refer me to the sleep lab "
            "at Charité."
        ),
        "paraphrase": (
            "4 weeks of Oura ring data show I sleep 6 h 20 min on average, with 58 minutes of deep "
            "sleep and a resting heart rate of 56 bpm. I go to bed anywhere from 23:10 to 01:30, "
            "and according to Dr. Lange, whom I saw on 3 September, that irregularity is the core "
            "issue. Together we set these rules: get up at 06:45 every day, weekends too; screens "
            "off from 22:30; no coffee after 14:00; 200 mg of magnesium glycinate each evening. We "
            "review on 1 October. Should the average still be below 6.5 hours then, she'll send me "
            "to the Charité sleep lab."
        ),
        "translation": (
            "Schlafnotizen aus den letzten 4 Wochen mit dem Oura-Ring: durchschnittlich 6 h 20 min "
            "Schlaf, 58 Minuten Tiefschlaf, Ruhepuls 56 Schläge pro Minute. Die Zubettgehzeit "
            "schwankt zwischen 23:10 und 01:30 Uhr, was Dr. Lange (Termin am 3. September) als "
            "Hauptproblem bezeichnet hat. Der vereinbarte Plan: feste Aufstehzeit um 06:45 Uhr, "
            "auch am Wochenende, keine Bildschirme nach 22:30 Uhr, letzter Kaffee vor 14:00 Uhr "
            "und abends 200 mg Magnesiumglycinat. Kontrolle am 1. Oktober; liegt der Schnitt dann "
            "weiter unter 6,5 Stunden, überweist sie mich ins Schlaflabor der Charité."
        ),
        "changed": (
            "Sleep notes after 4 weeks on the plan from Dr. Lange (visit on 3 September), measured "
            "with the Oura ring: average sleep is now 7 h 05 min, deep sleep 71 minutes, resting "
            "heart rate 53 bpm. Bedtime now varies only between 22:50 and 23:30. Still keeping the "
            "fixed wake time of 06:45 including weekends, no screens after 22:30 and the last "
            "coffee before 14:00, but the magnesium glycinate is stopped because it upset my "
            "stomach. At the check on 1 October she said no referral to the sleep lab at Charité "
            "is needed; next check in January."
        ),
        "sibling": (
            "Blood test from 12 August at the practice of Dr. Lange: LDL cholesterol 142 mg/dL, "
            "slightly above the target of 130; vitamin D 18 ng/mL, which is too low; HbA1c 5.2 "
            "percent and thyroid values normal. Plan: 1,000 IU of vitamin D3 daily through the "
            "winter, more oily fish, and a repeat test in February. Results PDF saved in the "
            "health folder."
        ),
    },
    {
        "lang": "de",
        "topic": "Elternabend",
        "title": "Elternabend der 3b im September",
        "content": (
            "Elternabend der Klasse 3b an der Grundschule am Park am Dienstag, 24. September, um "
            "19:30 Uhr in Raum 112, Klassenlehrerin ist Frau Öztürk. Wichtigste Punkte: Die "
            "Klassenfahrt nach Bad Segeberg ist vom 12. bis 14. Mai, Kosten 145 Euro pro Kind, "
            "Anzahlung 50 Euro bis zum 15. November. Neue Elternvertreter sind Herr Brandt und "
            "Frau Nguyen. In die Klassenkasse kommen 20 Euro pro Kind für das ganze Schuljahr. "
            "Schwimmunterricht ab Februar immer donnerstags in der 3. und 4. Stunde, Badekappe "
            "nicht vergessen."
        ),
        "paraphrase": (
            "Am Dienstag, 24. September, trafen sich die Eltern der 3b von der Grundschule am Park "
            "um 19:30 Uhr in Raum 112 mit der Klassenlehrerin, Frau Öztürk. Vom 12. bis 14. Mai "
            "fährt die Klasse nach Bad Segeberg; pro Kind kostet das 145 Euro, und 50 Euro davon "
            "sind bis 15. November anzuzahlen. Zu Elternvertretern gewählt wurden Frau Nguyen und "
            "Herr Brandt. Für das Schuljahr zahlt jede Familie 20 Euro pro Kind in die "
            "Klassenkasse. Ab Februar geht es donnerstags in der 3. und 4. Stunde zum Schwimmen, "
            "eine Badekappe muss mit."
        ),
        "translation": (
            "Parents' evening for class 3b at the Grundschule am Park on Tuesday, 24 September, at "
            "19:30 in room 112; the class teacher is Ms Öztürk. Main points: the class trip to Bad "
            "Segeberg is from 12 to 14 May, costs 145 euros per child, with a deposit of 50 euros "
            "due by 15 November. The new parent representatives are Mr Brandt and Ms Nguyen. Each "
            "child pays 20 euros into the class fund for the whole school year. Swimming lessons "
            "start in February, always on Thursdays in the 3rd and 4th period; don't forget a "
            "swimming cap."
        ),
        "changed": (
            "Elternabend der Klasse 3b an der Grundschule am Park am Dienstag, 24. September, um "
            "19:30 Uhr in Raum 112, Klassenlehrerin ist Frau Öztürk. Wichtigste Punkte: Die "
            "Klassenfahrt nach Bad Segeberg ist vom 12. bis 14. Mai, Kosten 165 Euro pro Kind, "
            "Anzahlung 50 Euro bis zum 1. Dezember. Neue Elternvertreter sind Herr Brandt und Frau "
            "Nguyen. In die Klassenkasse kommen 20 Euro pro Kind für das ganze Schuljahr. "
            "Schwimmunterricht ab Februar immer donnerstags in der 3. und 4. Stunde, Badekappe "
            "nicht vergessen."
        ),
        "sibling": (
            "Hortplatz für Lio ab 1. August im Hort Regenbogen direkt neben der Schule. Betreuung "
            "bis 17 Uhr, freitags bis 15 Uhr. Elternbeitrag 112 Euro im Monat, dazu 4 Euro pro "
            "Mittagessen. Ferienbetreuung gibt es an 8 Wochen im Jahr, Anmeldung jeweils sechs "
            "Wochen vorher. Abholen dürfen außer uns nur Oma Gisela und Frau Petersen von nebenan, "
            "die Vollmacht liegt im Hort."
        ),
    },
    {
        "lang": "en",
        "topic": "redis cache",
        "title": "Redis cache for the product catalogue",
        "content": (
            "The product catalogue cache runs on ElastiCache with Redis 7.1, node type "
            "cache.r6g.large (13 GB), one primary and two replicas in eu-west-1. maxmemory-policy "
            "is allkeys-lru, and product pages are cached with a TTL of 15 minutes. The hit rate "
            "in March was 94 percent. Keys follow the pattern catalog:v3:{sku}:{locale}, so "
            "bumping v3 invalidates everything. Warming the cache after a deploy takes about 4 "
            "minutes for the top 20,000 SKUs. A memory alarm fires at 80 percent."
        ),
        "paraphrase": (
            "We cache the product catalogue in ElastiCache: Redis 7.1 on cache.r6g.large nodes "
            "with 13 GB each, a primary plus two replicas, all in eu-west-1. Eviction uses "
            "allkeys-lru, and a cached product page lives for 15 minutes. In March 94 percent of "
            "lookups were hits. Every key has the shape catalog:v3:{sku}:{locale}; changing the v3 "
            "part throws the whole cache away. Once a deploy is out, warming up the 20,000 most "
            "requested SKUs needs around 4 minutes. When memory use passes 80 percent, an alarm "
            "goes off."
        ),
        "translation": (
            "Der Cache für den Produktkatalog läuft auf ElastiCache mit Redis 7.1, Knotentyp "
            "cache.r6g.large (13 GB), ein Primary und zwei Replicas in eu-west-1. Die "
            "maxmemory-policy ist allkeys-lru, und Produktseiten werden mit einer TTL von 15 "
            "Minuten gecacht. Die Trefferquote lag im März bei 94 Prozent. Die Schlüssel folgen "
            "dem Muster catalog:v3:{sku}:{locale}, ein Hochzählen von v3 invalidiert also alles. "
            "Das Aufwärmen des Caches nach einem Deployment dauert für die 20.000 wichtigsten SKUs "
            "etwa 4 Minuten. Ab 80 Prozent Speicherauslastung schlägt ein Alarm an."
        ),
        "changed": (
            "Update after the incident on 11 April: the product catalogue cache still runs on "
            "ElastiCache with Redis 7.1, but the node type is now cache.r6g.xlarge (26 GB), one "
            "primary and two replicas in eu-west-1. maxmemory-policy changed from allkeys-lru to "
            "volatile-lfu, because session keys without a TTL were being evicted. Product pages "
            "are now cached with a TTL of 30 minutes. Keys follow the pattern "
            "catalog:v3:{sku}:{locale}, so bumping v3 invalidates everything. A memory alarm fires "
            "at 80 percent."
        ),
        "sibling": (
            "Background jobs run on Celery 5.3 with RabbitMQ 3.12 as the broker. There are three "
            "queues: default, emails and reports; the reports workers use a prefetch of 1 because "
            "single jobs can take 10 minutes. Failed tasks are retried 5 times with exponential "
            "backoff starting at 10 seconds. Flower is available on port 5555 behind the VPN for "
            "inspecting stuck tasks."
        ),
    },
    {
        "lang": "en",
        "topic": "hiring pipeline",
        "title": "Hiring status: Senior Backend Engineer BE-114",
        "content": (
            "Hiring for the Senior Backend Engineer role (req BE-114, Go and Postgres, remote "
            "within the EU). Salary band 85,000-100,000 EUR. Pipeline as of 10 June: 212 "
            "applicants, 31 passed the recruiter screen, 9 did the take-home task and 4 are in "
            "final interviews. The loop is a 45-minute system design interview with Arjun, a "
            "60-minute pairing session with Clara and a 30-minute values interview with the hiring "
            "manager, Tobias. Decision meeting on 21 June. Offers need VP approval within 48 "
            "hours. Recruiter: Nina Sorensen."
        ),
        "paraphrase": (
            "Where we stand on req BE-114, the Senior Backend Engineer opening (Go, Postgres, "
            "fully remote inside the EU), on 10 June: of 212 applications, 31 made it through the "
            "recruiter screen, 9 handed in the take-home and 4 have reached the final round. The "
            "pay range is 85,000 to 100,000 EUR. Candidates meet Arjun for 45 minutes of system "
            "design, pair with Clara for 60 minutes, and finish with 30 minutes on values with "
            "Tobias, the hiring manager. We decide on 21 June. The VP has 48 hours to sign off on "
            "any offer. Nina Sorensen is the recruiter."
        ),
        "translation": (
            "Besetzung der Stelle Senior Backend Engineer (Ausschreibung BE-114, Go und Postgres, "
            "remote innerhalb der EU). Gehaltsband 85.000 bis 100.000 EUR. Stand am 10. Juni: 212 "
            "Bewerbungen, 31 haben das Recruiter-Screening bestanden, 9 haben die Hausaufgabe "
            "gemacht, und 4 sind in den finalen Gesprächen. Der Ablauf besteht aus 45 Minuten "
            "Systemdesign mit Arjun, 60 Minuten Pairing mit Clara und 30 Minuten Werte-Interview "
            "mit dem Hiring Manager Tobias. Entscheidungstermin am 21. Juni. Angebote muss der VP "
            "innerhalb von 48 Stunden freigeben. Recruiterin: Nina Sorensen."
        ),
        "changed": (
            "Hiring for the Senior Backend Engineer role (req BE-114, Go and Postgres, remote "
            "within the EU). Salary band 90,000-110,000 EUR. Pipeline as of 10 June: 212 "
            "applicants, 31 passed the recruiter screen, 9 did the take-home task and 4 are in "
            "final interviews. The loop is a 45-minute system design interview with Arjun, a "
            "60-minute pairing session with Clara and a 30-minute values interview with the hiring "
            "manager, Tobias. Decision meeting on 28 June. Offers need VP approval within 48 "
            "hours. Recruiter: Nina Sorensen."
        ),
        "sibling": (
            "Onboarding checklist for new engineers: order the laptop two weeks before the start "
            "date (MacBook Pro 14 with 32 GB), create accounts in Okta, GitHub and Slack on day "
            "one, and assign a buddy from another team. The first week ends with a small merged PR "
            "and a 30-minute architecture walkthrough. The manager checks in after 30, 60 and 90 "
            "days."
        ),
    },
    {
        "lang": "de",
        "topic": "Heizungswartung",
        "title": "Wartung der Gastherme im Oktober",
        "content": (
            "Die Gastherme (Vaillant ecoTEC plus, Baujahr 2016) wurde am 7. Oktober von der Firma "
            "Haustechnik Gruber gewartet. Der Techniker, Herr Kowalski, hat den Brenner gereinigt, "
            "die Zündelektrode getauscht und den Anlagendruck von 0,9 auf 1,5 bar aufgefüllt. Die "
            "Abgaswerte sind in Ordnung, CO-Wert 18 ppm. Kosten 189 Euro inklusive Anfahrt. "
            "Hinweis von ihm: Das Ausdehnungsgefäß verliert Druck und sollte beim nächsten Mal "
            "geprüft werden. Nächste Wartung im Oktober nächsten Jahres; der Wartungsvertrag für "
            "159 Euro im Jahr ist noch nicht abgeschlossen."
        ),
        "paraphrase": (
            "Am 7. Oktober war Herr Kowalski von Haustechnik Gruber zur Wartung unserer Vaillant "
            "ecoTEC plus da, die Therme ist von 2016. Er hat den Brenner sauber gemacht, eine neue "
            "Zündelektrode eingebaut und Wasser nachgefüllt, sodass der Druck jetzt bei 1,5 statt "
            "0,9 bar liegt. Beim Abgas gab es nichts zu beanstanden, gemessen wurden 18 ppm CO. "
            "Mit Anfahrt hat das 189 Euro gekostet. Sein Tipp: Im Ausdehnungsgefäß geht Druck "
            "verloren, das sollte man bei der nächsten Wartung anschauen. Die steht im Oktober "
            "kommenden Jahres an. Ob wir den Wartungsvertrag zu 159 Euro jährlich abschließen, ist "
            "noch offen."
        ),
        "translation": (
            "The gas boiler (Vaillant ecoTEC plus, built 2016) was serviced on 7 October by "
            "Haustechnik Gruber. The technician, Mr Kowalski, cleaned the burner, replaced the "
            "ignition electrode and topped the system pressure up from 0.9 to 1.5 bar. Flue gas "
            "values are fine, CO reading 18 ppm. Cost 189 euros including the call-out. His note: "
            "the expansion vessel is losing pressure and should be checked next time. Next service "
            "in October next year; the maintenance contract at 159 euros a year has not been "
            "signed yet."
        ),
        "changed": (
            "Nachtrag zur Gastherme (Vaillant ecoTEC plus, Baujahr 2016): Am 3. Dezember ist die "
            "Heizung ausgefallen, der Anlagendruck war auf 0,4 bar gefallen. Herr Kowalski von der "
            "Firma Haustechnik Gruber hat das Ausdehnungsgefäß getauscht und den Druck wieder auf "
            "1,5 bar aufgefüllt. Kosten 420 Euro inklusive Anfahrt und Material. Wir haben den "
            "Wartungsvertrag für 159 Euro im Jahr jetzt abgeschlossen, er gilt ab dem 1. Januar "
            "und deckt die jährliche Wartung im Oktober ab."
        ),
        "sibling": (
            "Der Bezirksschornsteinfeger, Herr Lindner, kommt einmal im Jahr im Juni zur "
            "Feuerstättenschau und Abgasmessung. Die letzte Messung war am 11. Juni, Gebühr 62,40 "
            "Euro. Für den Kaminofen im Wohnzimmer gilt: nur Holz mit weniger als 20 Prozent "
            "Restfeuchte verbrennen, vorher mit dem Messgerät aus der Werkzeugkiste prüfen. Die "
            "Asche kommt erst nach 24 Stunden in die Restmülltonne."
        ),
    },
    {
        "lang": "en",
        "topic": "mobile app release",
        "title": "Release checklist for mobile app 5.8.0",
        "content": (
            "Release checklist for the mobile app, version 5.8.0 (build 5802), planned for 18 "
            "June. Freeze the branch release/5.8 on 11 June; the QA regression on iOS 16-17 and "
            "Android 11-14 takes 3 days. On Google Play the staged rollout starts at 10 percent; "
            "the App Store uses phased release over 7 days. Crash-free sessions in Crashlytics "
            "must stay above 99.5 percent, otherwise the rollout is halted. Release notes in "
            "English, German and Spanish go to Ana by 14 June. Release manager: Victor Mendes."
        ),
        "paraphrase": (
            "Mobile app 5.8.0, build 5802, is due out on 18 June. On 11 June release/5.8 is "
            "frozen, after which QA spends 3 days on regression testing across iOS 16-17 and "
            "Android 11-14. Google Play gets a staged rollout beginning with 10 percent of users, "
            "while on the App Store we let phased release spread it over 7 days. If Crashlytics "
            "shows crash-free sessions at or below 99.5 percent, we stop the rollout. Ana needs "
            "the release notes, in English, German and Spanish, no later than 14 June. Victor "
            "Mendes manages the release."
        ),
        "translation": (
            "Release-Checkliste für die Mobile-App, Version 5.8.0 (Build 5802), geplant für den "
            "18. Juni. Der Branch release/5.8 wird am 11. Juni eingefroren; die QA-Regression auf "
            "iOS 16-17 und Android 11-14 dauert 3 Tage. Bei Google Play beginnt der gestaffelte "
            "Rollout mit 10 Prozent, im App Store läuft die phasenweise Veröffentlichung über 7 "
            "Tage. Die absturzfreien Sitzungen in Crashlytics müssen über 99,5 Prozent bleiben, "
            "sonst wird der Rollout gestoppt. Release Notes auf Englisch, Deutsch und Spanisch "
            "gehen bis zum 14. Juni an Ana. Release Manager: Victor Mendes."
        ),
        "changed": (
            "Release checklist for the mobile app, version 5.8.0 (build 5802), planned for 25 "
            "June. Freeze the branch release/5.8 on 18 June; the QA regression on iOS 16-17 and "
            "Android 11-14 takes 3 days. On Google Play the staged rollout starts at 20 percent; "
            "the App Store uses phased release over 7 days. Crash-free sessions in Crashlytics "
            "must stay above 99.5 percent, otherwise the rollout is halted. Release notes in "
            "English, German and Spanish go to Ana by 14 June. Release manager: Victor Mendes."
        ),
        "sibling": (
            "Push notification rules for the mobile app: at most 3 marketing pushes per user per "
            "week, and none during quiet hours from 21:00 to 08:00 local time. Transactional "
            "pushes such as order shipped are exempt. Segments are built as Firebase Cloud "
            "Messaging topics, and every campaign needs a deep link that opens the matching "
            "screen. Opt-in rate on iOS is currently 41 percent."
        ),
    },
    {
        "lang": "en",
        "topic": "portfolio rebalancing",
        "title": "Annual portfolio rebalancing in January",
        "content": (
            "Portfolio rebalancing, done on 2 January. Target allocation: 70 percent global "
            "equities (Vanguard FTSE All-World ETF), 20 percent euro government bonds (iShares "
            "Core Euro Government Bond ETF) and 10 percent cash in the savings account at 3.1 "
            "percent interest. After the strong year, equities had drifted to 76 percent. Sold "
            "equities worth 8,400 EUR and bought bonds for the same amount, with a 1 EUR fee per "
            "order at Trade Republic. Total portfolio value 142,000 EUR. Rule: rebalance once a "
            "year, or whenever an asset class is more than 5 points off target."
        ),
        "paraphrase": (
            "On 2 January I brought the portfolio back to its targets. These are 70 percent world "
            "equities through the Vanguard FTSE All-World ETF, 20 percent euro government bonds "
            "through the iShares Core Euro Government Bond ETF, and 10 percent as cash in the "
            "savings account, which pays 3.1 percent. A good year had pushed the equity share up "
            "to 76 percent. So I sold 8,400 EUR of equities and put exactly that into bonds; Trade "
            "Republic charged 1 EUR for each order. The whole portfolio is worth 142,000 EUR. I "
            "rebalance once per year, or sooner if any asset class drifts more than 5 points from "
            "its target."
        ),
        "translation": (
            "Umschichtung des Depots am 2. Januar. Zielaufteilung: 70 Prozent globale Aktien "
            "(Vanguard FTSE All-World ETF), 20 Prozent Euro-Staatsanleihen (iShares Core Euro "
            "Government Bond ETF) und 10 Prozent Bargeld auf dem Tagesgeldkonto zu 3,1 Prozent "
            "Zinsen. Nach dem starken Jahr war der Aktienanteil auf 76 Prozent gestiegen. Aktien "
            "im Wert von 8.400 EUR verkauft und für denselben Betrag Anleihen gekauft, Gebühr 1 "
            "EUR pro Order bei Trade Republic. Gesamtwert des Depots 142.000 EUR. Regel: einmal im "
            "Jahr umschichten oder immer dann, wenn eine Anlageklasse mehr als 5 Prozentpunkte vom "
            "Ziel abweicht."
        ),
        "changed": (
            "Portfolio update from 15 July: I changed the target allocation to 60 percent global "
            "equities (Vanguard FTSE All-World ETF), 30 percent euro government bonds (iShares "
            "Core Euro Government Bond ETF) and 10 percent cash in the savings account at 3.1 "
            "percent interest, because the down payment for the flat is planned for 2027. Sold "
            "equities worth 17,900 EUR and bought bonds for the same amount, with a 1 EUR fee per "
            "order at Trade Republic. Total portfolio value 151,000 EUR. Rule: rebalance once a "
            "year, or whenever an asset class is more than 5 points off target."
        ),
        "sibling": (
            "Household budget for this year: combined net income 5,200 EUR a month. Fixed costs "
            "are 1,480 EUR rent, 240 EUR for utilities and internet, 310 EUR for insurance and the "
            "car, and 150 EUR for subscriptions and the gym. Groceries are budgeted at 650 EUR. "
            "Savings plans take 1,000 EUR on the 3rd of each month, and whatever is left on the "
            "28th goes to the travel account."
        ),
    },
    {
        "lang": "de",
        "topic": "Vereinsfest",
        "title": "Sommerfest des TSV Grünwald: Organisation",
        "content": (
            "Das Sommerfest des TSV Grünwald ist am Samstag, 6. Juli, ab 14 Uhr auf dem "
            "Sportgelände an der Eichenallee. Erwartet werden rund 400 Gäste. Orga-Team: Petra "
            "kümmert sich ums Kuchenbuffet (mindestens 25 Kuchen), Jürgen um den Grill (300 "
            "Bratwürste und 120 Steaks bei der Metzgerei Huber bestellt) und Sabine ums "
            "Kinderprogramm mit Hüpfburg für 180 Euro Miete. Die Getränke liefert der "
            "Getränkemarkt Lenz auf Kommission. Ab 19 Uhr spielt die Band „Die Dorfrocker“, Gage "
            "600 Euro. Aufbau am Freitag ab 17 Uhr, die Helferliste hängt im Vereinsheim."
        ),
        "paraphrase": (
            "Am Samstag, 6. Juli, feiert der TSV Grünwald ab 14 Uhr sein Sommerfest, wie immer auf "
            "dem Sportplatz an der Eichenallee, und wir rechnen mit etwa 400 Besuchern. Für die "
            "Kuchen ist Petra zuständig, sie braucht mindestens 25 Stück. Jürgen steht am Grill "
            "und hat bei der Metzgerei Huber 300 Bratwürste und 120 Steaks geordert. Sabine plant "
            "das Programm für die Kinder, die Hüpfburg kostet 180 Euro Miete. Getränke kommen auf "
            "Kommission vom Getränkemarkt Lenz. „Die Dorfrocker“ treten ab 19 Uhr auf und bekommen "
            "600 Euro. Aufgebaut wird freitags ab 17 Uhr; wer helfen will, trägt sich im "
            "Vereinsheim ein."
        ),
        "translation": (
            "The TSV Grünwald summer party is on Saturday, 6 July, from 14:00 at the sports ground "
            "on Eichenallee. About 400 guests are expected. Organising team: Petra handles the "
            "cake buffet (at least 25 cakes), Jürgen the barbecue (300 bratwursts and 120 steaks "
            "ordered from the Huber butcher's) and Sabine the children's programme with a bouncy "
            "castle rented for 180 euros. Drinks are supplied on commission by the Lenz drinks "
            "shop. From 19:00 the band 'Die Dorfrocker' plays, fee 600 euros. Setup on Friday from "
            "17:00; the volunteer list is up in the clubhouse."
        ),
        "changed": (
            "Das Sommerfest des TSV Grünwald ist am Samstag, 13. Juli, ab 14 Uhr auf dem "
            "Sportgelände an der Eichenallee. Erwartet werden rund 400 Gäste. Orga-Team: Petra "
            "kümmert sich ums Kuchenbuffet (mindestens 25 Kuchen), Jürgen um den Grill (300 "
            "Bratwürste und 120 Steaks bei der Metzgerei Huber bestellt) und Sabine ums "
            "Kinderprogramm mit Hüpfburg für 180 Euro Miete. Die Getränke liefert der "
            "Getränkemarkt Lenz auf Kommission. Ab 19 Uhr spielt die Band „Die Dorfrocker“, Gage "
            "750 Euro. Aufbau am Freitag ab 17 Uhr, die Helferliste hängt im Vereinsheim."
        ),
        "sibling": (
            "Mitgliedsbeiträge beim TSV Grünwald ab 2025: Erwachsene zahlen 96 Euro im Jahr, "
            "Kinder und Jugendliche 48 Euro, Familien 180 Euro. Abgebucht wird per Lastschrift am "
            "15. Februar. Für die Tennisabteilung kommt ein Spartenbeitrag von 60 Euro dazu. "
            "Kündigen kann man schriftlich bis zum 30. September zum Jahresende, per E-Mail an die "
            "Geschäftsstelle reicht."
        ),
    },
    {
        "lang": "en",
        "topic": "cat vet visit",
        "title": "Miso's vet visit in February",
        "content": (
            "Vet visit for Miso (male cat, 6 years, neutered, 5.4 kg) at Tierarztpraxis Am "
            "Stadtpark on 14 February with Dr. Yilmaz. Reason: vomiting two to three times a week "
            "for a month. Blood work was normal apart from slightly raised kidney values "
            "(creatinine 1.9 mg/dL). Plan: switch to Royal Canin Sensitivity Control for 6 weeks, "
            "four small meals a day and no treats. The annual vaccination against cat flu and "
            "panleukopenia was done the same day. Cost 187 EUR. Follow-up blood test on 28 March."
        ),
        "paraphrase": (
            "On 14 February Miso saw Dr. Yilmaz at Tierarztpraxis Am Stadtpark. He is a neutered "
            "6-year-old tom weighing 5.4 kg, and for a month he had been throwing up two or three "
            "times each week. Apart from kidney values a little on the high side, creatinine at "
            "1.9 mg/dL, the bloods came back normal. For the next 6 weeks he eats Royal Canin "
            "Sensitivity Control, split into four small portions a day, with no treats at all. "
            "While we were there he also got his yearly shots for cat flu and panleukopenia. The "
            "bill was 187 EUR. Bloods get repeated on 28 March."
        ),
        "translation": (
            "Tierarztbesuch mit Miso (Kater, 6 Jahre, kastriert, 5,4 kg) in der Tierarztpraxis Am "
            "Stadtpark am 14. Februar bei Dr. Yilmaz. Grund: seit einem Monat zwei- bis dreimal "
            "pro Woche Erbrechen. Das Blutbild war normal bis auf leicht erhöhte Nierenwerte "
            "(Kreatinin 1,9 mg/dl). Plan: 6 Wochen auf Royal Canin Sensitivity Control umstellen, "
            "vier kleine Mahlzeiten am Tag und keine Leckerlis. Die jährliche Impfung gegen "
            "Katzenschnupfen und Katzenseuche wurde am selben Tag gemacht. Kosten 187 EUR. "
            "Kontrolle des Blutbilds am 28. März."
        ),
        "changed": (
            "Follow-up for Miso (male cat, 6 years, neutered, now 5.1 kg) at Tierarztpraxis Am "
            "Stadtpark on 28 March with Dr. Yilmaz. The vomiting stopped after the switch to Royal "
            "Canin Sensitivity Control. But the kidney values went up to creatinine 2.3 mg/dL, so "
            "Dr. Yilmaz diagnosed early chronic kidney disease (IRIS stage 2). Plan: switch to "
            "Royal Canin Renal Select, keep four small meals a day and no treats, and test blood "
            "every 3 months. Cost 142 EUR. Next blood test on 27 June."
        ),
        "sibling": (
            "Cat sitter for Miso while we are away from 3 to 17 August: Lea from the flat next "
            "door comes twice a day, at 08:00 and 19:00, for 15 EUR per visit, so 420 EUR in "
            "total. Food is in the hallway cupboard, 60 g wet food per meal. The litter box is "
            "cleaned once a day and fully changed on 10 August. Vet emergency number is on the "
            "fridge."
        ),
    },
    {
        "lang": "de",
        "topic": "Kundengespräch",
        "title": "Kundengespräch Müller Haustechnik GmbH in Augsburg",
        "content": (
            "Kundengespräch mit der Müller Haustechnik GmbH am 16. April in Augsburg, dabei waren "
            "Geschäftsführer Thomas Müller und Einkaufsleiterin Frau Schwarz. Sie wollen ab Juni "
            "unsere Wartungssoftware für 35 Servicetechniker einsetzen, bisher arbeiten sie mit "
            "Papierformularen. Angebot: 29 Euro pro Nutzer und Monat bei 24 Monaten Laufzeit, "
            "Einrichtung pauschal 2.500 Euro. Wichtig für sie sind ein Offline-Modus auf den "
            "Tablets und der Export nach DATEV. Nächster Schritt: Testzugang für 5 Techniker bis "
            "zum 30. April, Entscheidung bis Mitte Mai."
        ),
        "paraphrase": (
            "Am 16. April waren wir in Augsburg bei der Müller Haustechnik GmbH und haben mit "
            "Thomas Müller, dem Geschäftsführer, sowie Frau Schwarz aus dem Einkauf gesprochen. "
            "Noch füllen deren 35 Servicetechniker Papierformulare aus; ab Juni soll stattdessen "
            "unsere Wartungssoftware laufen. Wir haben 29 Euro je Nutzer und Monat angeboten, bei "
            "einer Laufzeit von 24 Monaten, plus 2.500 Euro Pauschale für die Einrichtung. Ohne "
            "Offline-Modus auf den Tablets und ohne DATEV-Export geht für sie nichts. Als Nächstes "
            "bekommen 5 Techniker bis 30. April einen Testzugang, entschieden wird bis Mitte Mai."
        ),
        "translation": (
            "Customer meeting with Müller Haustechnik GmbH on 16 April in Augsburg, attended by "
            "managing director Thomas Müller and head of purchasing Ms Schwarz. From June they "
            "want to use our maintenance software for 35 service technicians; so far they work "
            "with paper forms. Offer: 29 euros per user per month with a 24-month term, one-off "
            "setup fee of 2,500 euros. What matters to them is an offline mode on the tablets and "
            "export to DATEV. Next step: trial access for 5 technicians by 30 April, decision by "
            "mid-May."
        ),
        "changed": (
            "Kundengespräch mit der Müller Haustechnik GmbH am 16. April in Augsburg, dabei waren "
            "Geschäftsführer Thomas Müller und Einkaufsleiterin Frau Schwarz. Sie wollen ab Juni "
            "unsere Wartungssoftware für 50 Servicetechniker einsetzen, bisher arbeiten sie mit "
            "Papierformularen. Angebot: 29 Euro pro Nutzer und Monat bei 36 Monaten Laufzeit, "
            "Einrichtung pauschal 2.500 Euro. Wichtig für sie sind ein Offline-Modus auf den "
            "Tablets und der Export nach DATEV. Nächster Schritt: Testzugang für 5 Techniker bis "
            "zum 30. April, Entscheidung bis Mitte Mai."
        ),
        "sibling": (
            "Reklamation von Bergmann Elektro: Die Rechnung Nr. 2024-0331 über 4.780 Euro wurde im "
            "März versehentlich zweimal abgebucht. Die Buchhaltung hat am 8. Mai eine Gutschrift "
            "über den vollen Betrag erstellt, die Rückzahlung geht mit dem nächsten Zahlungslauf "
            "am 15. Mai raus. Ansprechpartner beim Kunden ist Herr Kühn aus der Buchhaltung, "
            "Durchwahl 214."
        ),
    },
    {
        "lang": "en",
        "topic": "tls certificates",
        "title": "TLS certificates and renewal setup",
        "content": (
            "TLS certificates for shop.example.com, api.example.com and status.example.com are "
            "issued by Let's Encrypt through cert-manager 1.14 using the DNS-01 challenge on "
            "Cloudflare. They are valid for 90 days and renewed automatically 30 days before "
            "expiry. The wildcard *.internal.example.com still comes from DigiCert, valid until 14 "
            "November, at 640 USD per year. PagerDuty alerts when any certificate has fewer than "
            "14 days left. The Cloudflare API token used for DNS-01 is rotated every 6 months, "
            "last on 2 April."
        ),
        "paraphrase": (
            "cert-manager 1.14 obtains our Let's Encrypt certificates for shop.example.com, "
            "api.example.com and status.example.com, solving the DNS-01 challenge via Cloudflare. "
            "Each certificate lasts 90 days, and renewal kicks in by itself 30 days before it runs "
            "out. Only the *.internal.example.com wildcard is still bought from DigiCert; it costs "
            "640 USD a year and expires on 14 November. Once a certificate is within 14 days of "
            "expiry, PagerDuty raises an alert. Every 6 months we rotate the Cloudflare API token "
            "that DNS-01 depends on; the latest rotation was on 2 April."
        ),
        "translation": (
            "Die TLS-Zertifikate für shop.example.com, api.example.com und status.example.com "
            "stellt Let's Encrypt über cert-manager 1.14 mit der DNS-01-Challenge bei Cloudflare "
            "aus. Sie gelten 90 Tage und werden 30 Tage vor Ablauf automatisch erneuert. Das "
            "Wildcard-Zertifikat *.internal.example.com kommt noch von DigiCert, gültig bis 14. "
            "November, für 640 USD pro Jahr. PagerDuty alarmiert, wenn ein Zertifikat weniger als "
            "14 Tage Restlaufzeit hat. Das Cloudflare-API-Token für DNS-01 wird alle 6 Monate "
            "rotiert, zuletzt am 2. April."
        ),
        "changed": (
            "Update from 20 September: we will not renew the DigiCert wildcard "
            "*.internal.example.com when it expires on 14 November. Internal hosts will get Let's "
            "Encrypt certificates through cert-manager like shop.example.com, api.example.com and "
            "status.example.com, using the DNS-01 challenge on Cloudflare, which saves 640 USD per "
            "year. cert-manager is upgraded to 1.15 first. The PagerDuty alert threshold moves "
            "from 14 to 21 days before expiry. The Cloudflare API token used for DNS-01 is rotated "
            "every 6 months, last on 2 April."
        ),
        "sibling": (
            "Service-to-service traffic in the cluster uses mutual TLS through Linkerd 2.14. The "
            "trust anchor is valid for 10 years and is kept offline; the issuer certificate is "
            "rotated every 12 months, next on 9 January. Workload certificates live for 24 hours "
            "and are renewed automatically by the proxy. Namespaces opt in with the annotation "
            "linkerd.io/inject: enabled."
        ),
    },
    {
        "lang": "en",
        "topic": "language learning",
        "title": "Spanish learning plan towards the DELE B1",
        "content": (
            "Spanish learning plan, started on 8 January. Current level A2; the goal is B1 at the "
            "DELE exam on 18 May in Munich (registration fee 160 EUR, already paid). Weekly "
            "routine: two 60-minute lessons on italki with the tutor Carmen, Tuesdays and "
            "Thursdays at 19:00 for 22 USD per lesson, 20 minutes of Anki every morning with the "
            "'Spanish 5000' deck, and one episode of the Hoy Hablamos podcast on the commute. "
            "Grammar focus until March: the subjunctive and the past tenses. Current streak: 47 "
            "days."
        ),
        "paraphrase": (
            "I began working on my Spanish on 8 January. I'm at A2 now and want to pass the B1 "
            "DELE on 18 May in Munich; the 160 EUR exam fee is paid. Each week I have two italki "
            "lessons of 60 minutes with Carmen, my tutor, on Tuesday and Thursday evenings at "
            "19:00, at 22 USD apiece. Every morning I spend 20 minutes in Anki on the 'Spanish "
            "5000' deck, and on the way to work I listen to an episode of Hoy Hablamos. Until "
            "March, grammar time goes to the subjunctive and the past tenses. I've kept it up for "
            "47 days in a row."
        ),
        "translation": (
            "Spanisch-Lernplan, begonnen am 8. Januar. Aktuelles Niveau A2; Ziel ist B1 bei der "
            "DELE-Prüfung am 18. Mai in München (Anmeldegebühr 160 EUR, bereits bezahlt). "
            "Wochenroutine: zwei 60-minütige Stunden auf italki mit der Lehrerin Carmen, dienstags "
            "und donnerstags um 19:00 Uhr für 22 USD pro Stunde, jeden Morgen 20 Minuten Anki mit "
            "dem Deck „Spanish 5000“ und eine Folge des Podcasts Hoy Hablamos auf dem Arbeitsweg. "
            "Grammatikschwerpunkt bis März: Subjuntivo und die Vergangenheitszeiten. Aktuelle "
            "Serie: 47 Tage."
        ),
        "changed": (
            "Spanish learning plan, started on 8 January. Current level A2; the goal is B1 at the "
            "DELE exam on 16 November in Munich (registration fee 160 EUR, already paid). Weekly "
            "routine: two 60-minute lessons on italki with the tutor Carmen, Tuesdays and "
            "Thursdays at 19:00 for 25 USD per lesson, 20 minutes of Anki every morning with the "
            "'Spanish 5000' deck, and one episode of the Hoy Hablamos podcast on the commute. "
            "Grammar focus until March: the subjunctive and the past tenses. Current streak: 47 "
            "days."
        ),
        "sibling": (
            "Evening course 'Bookkeeping basics' at the Munich adult education centre: 10 sessions "
            "on Wednesdays from 18:30 to 20:45, starting 2 October, in room 3.14 at Einsteinstraße "
            "28. The fee is 189 EUR including the workbook. A certificate is issued with at least "
            "80 percent attendance, so I can miss two evenings at most. The employer reimburses "
            "half after the course."
        ),
    },
    {
        "lang": "de",
        "topic": "Umzug",
        "title": "Umzug nach Bonn am 31. August",
        "content": (
            "Umzug von Köln-Ehrenfeld nach Bonn-Poppelsdorf am Samstag, 31. August. Die "
            "Umzugsfirma Rheinlogistik kommt mit 4 Trägern und einem 7,5-Tonner, Festpreis 1.650 "
            "Euro inklusive Küchenabbau. Halteverbotszonen vor beiden Adressen sind beantragt, je "
            "95 Euro. Neue Wohnung: Clemens-August-Straße 12, 2. OG, kein Aufzug. Ummelden beim "
            "Bürgeramt Bonn innerhalb von 14 Tagen, Termin am 5. September. Nachsendeauftrag bei "
            "der Post für 12 Monate. Der Telekom-Anschluss ist zum 30. August umgezogen. Übergabe "
            "der alten Wohnung am 2. September um 10 Uhr."
        ),
        "paraphrase": (
            "Am Samstag, dem 31. August, ziehen wir von Köln-Ehrenfeld nach Bonn-Poppelsdorf. "
            "Rheinlogistik schickt einen 7,5-Tonner und 4 Träger; zum Festpreis von 1.650 Euro "
            "bauen sie auch die Küche ab. Vor der alten und der neuen Adresse haben wir jeweils "
            "eine Halteverbotszone beantragt, das kostet pro Stück 95 Euro. Die neue Wohnung liegt "
            "im zweiten Stock der Clemens-August-Straße 12, einen Aufzug gibt es nicht. Für das "
            "Ummelden in Bonn hat man 14 Tage Zeit, unser Termin beim Bürgeramt ist am 5. "
            "September. Die Post schickt 12 Monate lang alles nach. Telekom hat den Anschluss "
            "schon zum 30. August verlegt. Die alte Wohnung geben wir am 2. September um 10 Uhr "
            "ab."
        ),
        "translation": (
            "Move from Cologne-Ehrenfeld to Bonn-Poppelsdorf on Saturday, 31 August. The removal "
            "company Rheinlogistik is coming with 4 movers and a 7.5-tonne truck, fixed price "
            "1,650 euros including dismantling the kitchen. No-parking zones have been requested "
            "in front of both addresses, 95 euros each. New flat: Clemens-August-Straße 12, 2nd "
            "floor, no lift. Register the new address at the Bonn citizens' office within 14 days; "
            "appointment on 5 September. Mail forwarding with Deutsche Post for 12 months. The "
            "Telekom line has been moved as of 30 August. Handover of the old flat on 2 September "
            "at 10:00."
        ),
        "changed": (
            "Planänderung beim Umzug von Köln-Ehrenfeld nach Bonn-Poppelsdorf am Samstag, 31. "
            "August: Rheinlogistik hat abgesagt, wir ziehen jetzt selbst um, mit einem gemieteten "
            "3,5-Tonner von Sixt für 189 Euro und sechs Freunden als Trägern. Die Küche baut die "
            "Firma Küchen-Kramer schon am 30. August ab, für 380 Euro. Die Halteverbotszonen vor "
            "beiden Adressen bleiben beantragt, je 95 Euro. Neue Wohnung: Clemens-August-Straße "
            "12, 2. OG, kein Aufzug. Ummelden beim Bürgeramt Bonn am 5. September. Übergabe der "
            "alten Wohnung am 2. September um 10 Uhr."
        ),
        "sibling": (
            "Besichtigung der Dreizimmerwohnung in der Dürener Straße am 12. Juni um 18 Uhr: 84 "
            "Quadratmeter, Kaltmiete 1.120 Euro plus 260 Euro Nebenkosten, Balkon nach Süden, "
            "Einbauküche gegen 2.000 Euro Ablöse. Makler ist Herr Jansen, Provision zahlt der "
            "Vermieter. Mitbringen: Schufa-Auskunft, die letzten drei Gehaltsnachweise und eine "
            "Mietschuldenfreiheitsbescheinigung."
        ),
    },
    {
        "lang": "en",
        "topic": "board game night",
        "title": "Monthly board game night at Priya and Ben's",
        "content": (
            "Board game night is every second Friday of the month at Priya and Ben's place, from "
            "19:30 until about midnight. The next one is on 11 October. Regulars are Priya, Ben, "
            "Leo, Hana, Marco and me, so usually 6 players. Current rotation: Wingspan, Brass: "
            "Birmingham (3-4 players, around 2.5 hours) and Codenames to end the night. Everyone "
            "chips in 8 EUR for pizza from Da Enzo, ordered at 20:00. Leo is collecting money for "
            "a copy of Ark Nova, about 65 EUR. Hana is allergic to nuts."
        ),
        "paraphrase": (
            "On the second Friday of every month we play board games at Priya and Ben's, starting "
            "at 19:30 and usually wrapping up around midnight; 11 October is the next date. Most "
            "evenings there are 6 of us: Priya, Ben, Leo, Hana, Marco and myself. Lately we rotate "
            "between Wingspan and Brass: Birmingham, which takes 3-4 players and roughly 2.5 "
            "hours, and we close with Codenames. Pizza comes from Da Enzo at 20:00, and each "
            "person pays 8 EUR towards it. Leo is gathering contributions to buy Ark Nova, which "
            "costs around 65 EUR. Keep in mind that Hana has a nut allergy."
        ),
        "translation": (
            "Der Spieleabend ist jeden zweiten Freitag im Monat bei Priya und Ben, von 19:30 Uhr "
            "bis etwa Mitternacht. Der nächste ist am 11. Oktober. Stammspieler sind Priya, Ben, "
            "Leo, Hana, Marco und ich, also meist 6 Leute. Aktuell im Wechsel: Wingspan, Brass: "
            "Birmingham (3 bis 4 Spieler, etwa 2,5 Stunden) und Codenames zum Abschluss. Jeder "
            "gibt 8 EUR für Pizza von Da Enzo dazu, bestellt wird um 20:00 Uhr. Leo sammelt Geld "
            "für ein Exemplar von Ark Nova, etwa 65 EUR. Hana hat eine Nussallergie."
        ),
        "changed": (
            "Board game night is every first Friday of the month at Priya and Ben's place, from "
            "19:30 until about midnight. The next one is on 4 October. Regulars are Priya, Ben, "
            "Leo, Hana, Marco and me, so usually 6 players. Current rotation: Wingspan, Brass: "
            "Birmingham (3-4 players, around 2.5 hours) and Codenames to end the night. Everyone "
            "chips in 10 EUR for pizza from Da Enzo, ordered at 20:00. Leo is collecting money for "
            "a copy of Ark Nova, about 65 EUR. Hana is allergic to nuts."
        ),
        "sibling": (
            "Pub quiz at The Crown on Tuesdays at 20:00. Our team is 'Quiz Team Aguilera', at most "
            "6 people, and entry is 2 EUR each. On 17 September we came second with 68 points, two "
            "behind the winners; the music round is our weak spot, so Marco now brings his friend "
            "Ella. Winning team gets a 50 EUR bar tab. Book a table by Monday evening."
        ),
    },
    {
        "lang": "en",
        "topic": "graphql schema",
        "title": "GraphQL schema evolution rules",
        "content": (
            "GraphQL schema rules decided in the API review on 29 April. The gateway runs Apollo "
            "Router 1.45 in front of four subgraphs: accounts, catalog, orders and reviews. Fields "
            "are never removed without a deprecation period of 90 days, and deprecated fields must "
            "carry @deprecated with a reason naming the replacement. Schema checks run in CI "
            "against the last 14 days of production traffic via GraphOS, and breaking changes "
            "block the merge. The query depth limit is 10 and the complexity limit 2,000. "
            "Persisted queries are required only for the mobile clients."
        ),
        "paraphrase": (
            "At the API review on 29 April we set rules for how the GraphQL schema may change. "
            "Apollo Router 1.45 acts as the gateway and federates four subgraphs, namely accounts, "
            "catalog, orders and reviews. Removing a field always requires 90 days of deprecation "
            "first, and the @deprecated directive has to state in its reason what replaces the "
            "field. In CI, GraphOS compares every schema change with production traffic from the "
            "past 14 days; a breaking change cannot be merged. Queries may nest at most 10 levels "
            "deep and score at most 2,000 in complexity. Only mobile clients must use persisted "
            "queries."
        ),
        "translation": (
            "Regeln für das GraphQL-Schema, beschlossen im API-Review am 29. April. Das Gateway "
            "ist Apollo Router 1.45 vor vier Subgraphen: accounts, catalog, orders und reviews. "
            "Felder werden nie ohne eine Deprecation-Phase von 90 Tagen entfernt, und veraltete "
            "Felder müssen @deprecated mit einer Begründung tragen, die den Ersatz nennt. "
            "Schema-Checks laufen in der CI über GraphOS gegen den Produktionstraffic der letzten "
            "14 Tage, und Breaking Changes blockieren den Merge. Das Limit für die Abfragetiefe "
            "liegt bei 10, das Komplexitätslimit bei 2.000. Persisted Queries sind nur für die "
            "mobilen Clients Pflicht."
        ),
        "changed": (
            "Update to the GraphQL schema rules, API review on 20 May. The gateway still runs "
            "Apollo Router 1.45 in front of the four subgraphs accounts, catalog, orders and "
            "reviews. The deprecation period is shortened from 90 to 30 days for fields that had "
            "no traffic in the last 14 days; all other fields keep 90 days. Deprecated fields must "
            "carry @deprecated with a reason naming the replacement. Schema checks run in CI via "
            "GraphOS, and breaking changes block the merge. From 1 July persisted queries are "
            "required for all clients, including the web app."
        ),
        "sibling": (
            "Partner webhooks: we send order.created, order.shipped and order.refunded as JSON "
            "POST requests. Every request is signed with HMAC-SHA256 over the raw body, and the "
            "signature is in the X-Signature header. Partners must answer within 10 seconds with a "
            "2xx status; otherwise we retry with exponential backoff for up to 72 hours. Secrets "
            "can be rotated in the partner dashboard with a 24-hour overlap."
        ),
    },
    {
        "lang": "de",
        "topic": "Heuschnupfen",
        "title": "Heuschnupfen: Medikamente und Plan für die Pollensaison",
        "content": (
            "Heuschnupfen-Plan für die Saison. Laut Hauttest bei Dr. Petrović (HNO, 12. Februar): "
            "Birke stark, Gräser mittel, Hausstaub negativ. Birkenpollen fliegen hier meist von "
            "Mitte März bis Ende April. Ab dem 1. März täglich abends Cetirizin 10 mg, dazu "
            "morgens Mometason-Nasenspray, zwei Sprühstöße pro Nasenloch. Die Pollenflug-App warnt "
            "ab Belastung mittel. Fenster nur nachts lüften und abends vor dem Schlafen die Haare "
            "waschen. Die Hyposensibilisierung beginnt im Oktober und dauert 3 Jahre, die Kosten "
            "übernimmt die Krankenkasse."
        ),
        "paraphrase": (
            "So gehe ich dieses Jahr gegen den Heuschnupfen vor. Beim Hauttest am 12. Februar hat "
            "die HNO-Ärztin Dr. Petrović eine starke Reaktion auf Birke festgestellt, eine "
            "mittlere auf Gräser und keine auf Hausstaub. Die Birke blüht bei uns normalerweise ab "
            "Mitte März und bis Ende April. Deshalb nehme ich vom 1. März an jeden Abend 10 mg "
            "Cetirizin und sprühe morgens Mometason, je Nasenloch zweimal. Ab mittlerer Belastung "
            "schickt mir die Pollenflug-App eine Warnung. Gelüftet wird nur nachts, und bevor ich "
            "ins Bett gehe, wasche ich mir die Haare. Im Oktober fängt die Hyposensibilisierung "
            "an, sie läuft 3 Jahre und wird von der Krankenkasse bezahlt."
        ),
        "translation": (
            "Hay fever plan for the season. According to the skin test with Dr. Petrović (ENT, 12 "
            "February): birch strong, grasses moderate, house dust negative. Birch pollen here "
            "usually flies from mid-March to the end of April. From 1 March, cetirizine 10 mg "
            "every evening, plus mometasone nasal spray in the morning, two sprays per nostril. "
            "The pollen app warns from moderate levels upwards. Air the rooms only at night and "
            "wash hair in the evening before going to bed. Immunotherapy starts in October and "
            "lasts 3 years; health insurance covers the costs."
        ),
        "changed": (
            "Heuschnupfen-Plan für die Saison. Laut Hauttest bei Dr. Petrović (HNO, 12. Februar): "
            "Birke stark, Gräser mittel, Hausstaub negativ. Birkenpollen fliegen hier meist von "
            "Mitte März bis Ende April. Ab dem 15. Februar täglich abends Cetirizin 10 mg, dazu "
            "morgens Mometason-Nasenspray, zwei Sprühstöße pro Nasenloch. Die Pollenflug-App warnt "
            "ab Belastung mittel. Fenster nur nachts lüften und abends vor dem Schlafen die Haare "
            "waschen. Die Hyposensibilisierung beginnt im November und dauert 3 Jahre, die Kosten "
            "übernimmt die Krankenkasse."
        ),
        "sibling": (
            "Impfstatus laut Impfpass: Tetanus, Diphtherie und Keuchhusten zuletzt am 4. Mai 2017, "
            "die Auffrischung ist also 2027 fällig. Gegen FSME dreimal geimpft, letzte Dosis im "
            "Juni 2021, Auffrischung nach 5 Jahren. Die Grippeimpfung gibt es jedes Jahr im "
            "Oktober beim Hausarzt Dr. Krüger, Termin am besten online buchen. Der Impfpass liegt "
            "im Schreibtisch, ein Foto davon in der Cloud."
        ),
    },
    {
        "lang": "en",
        "topic": "wedding venue",
        "title": "Wedding venue booked at Gut Kaltenbrunn",
        "content": (
            "Wedding planning, venue decision from 3 February: we chose Gut Kaltenbrunn at Lake "
            "Tegernsee for Saturday 14 June next year. The ceremony is outdoors at 14:00 by the "
            "lake, with the barn as rain backup. The venue takes up to 120 guests; we plan for 95. "
            "Venue hire is 6,500 EUR, catering 128 EUR per person including drinks until 01:00. A "
            "deposit of 2,000 EUR is due by 1 March. Our coordinator there is Frau Angerer. Next "
            "steps: send save-the-dates in April, book the band Brass Rebels and block 30 rooms at "
            "Hotel Bachmair Weissach."
        ),
        "paraphrase": (
            "We made the venue call on 3 February: the wedding will be at Gut Kaltenbrunn on Lake "
            "Tegernsee, on Saturday 14 June next year. At 14:00 we say our vows outside by the "
            "water, and if it rains we move into the barn. Up to 120 people fit, though we expect "
            "95. Renting the estate costs 6,500 EUR, and catering is 128 EUR a head with drinks "
            "served until 01:00. We owe a 2,000 EUR deposit by 1 March. Frau Angerer coordinates "
            "on their side. Coming up: save-the-dates go out in April, we book Brass Rebels as the "
            "band, and we reserve 30 rooms at Hotel Bachmair Weissach."
        ),
        "translation": (
            "Hochzeitsplanung, Entscheidung für die Location vom 3. Februar: Wir haben uns für Gut "
            "Kaltenbrunn am Tegernsee entschieden, am Samstag, 14. Juni nächsten Jahres. Die "
            "Trauung findet um 14:00 Uhr draußen am See statt, bei Regen weichen wir in die "
            "Scheune aus. Platz ist für bis zu 120 Gäste; wir planen mit 95. Die Miete für die "
            "Location beträgt 6.500 EUR, das Catering 128 EUR pro Person inklusive Getränken bis "
            "01:00 Uhr. Eine Anzahlung von 2.000 EUR ist bis zum 1. März fällig. Unsere "
            "Ansprechpartnerin dort ist Frau Angerer. Nächste Schritte: im April Save-the-Dates "
            "verschicken, die Band Brass Rebels buchen und 30 Zimmer im Hotel Bachmair Weissach "
            "blocken."
        ),
        "changed": (
            "Wedding planning update from 10 March: Gut Kaltenbrunn at Lake Tegernsee had a double "
            "booking on Saturday 14 June, so our wedding moves to Saturday 21 June next year. The "
            "ceremony stays outdoors at 14:00 by the lake, with the barn as rain backup. We now "
            "plan for 110 guests. Venue hire is unchanged at 6,500 EUR, but catering went up to "
            "135 EUR per person including drinks until 01:00. The deposit of 2,000 EUR was paid on "
            "28 February. Our coordinator there is Frau Angerer. Brass Rebels are not free on the "
            "new date, so we are looking for another band."
        ),
        "sibling": (
            "Bachelor party for Jonas, weekend of 9-11 May in Hamburg with 8 people. The apartment "
            "in St. Pauli is booked through Airbnb for 1,120 EUR in total. Saturday: harbour kayak "
            "tour at 11:00 (39 EUR each), then dinner at Bullerei at 19:30. Everyone pays 260 EUR "
            "into the shared Tricount by 15 April. Jonas must not find out about the karaoke "
            "booking."
        ),
    },
    {
        "lang": "de",
        "topic": "Stromvertrag",
        "title": "Stromanbieter gewechselt zu den Stadtwerken",
        "content": (
            "Der Stromvertrag ist gewechselt: Ab 1. März liefern die Stadtwerke Freiburg Ökostrom "
            "im Tarif „Regio Natur“. Arbeitspreis 29,8 Cent pro kWh, Grundpreis 11,90 Euro im "
            "Monat, Preisgarantie für 24 Monate. Der Verbrauch lag letztes Jahr bei 2.850 kWh, "
            "daraus ergibt sich ein Abschlag von 83 Euro im Monat. Die Kündigung beim alten "
            "Anbieter Vattenfall hat der neue Anbieter übernommen. Zählernummer 1ESY1160 4421 73; "
            "am 28. Februar den Zählerstand ablesen und fotografieren. Den Wechselbonus von 50 "
            "Euro gibt es nach 12 Monaten."
        ),
        "paraphrase": (
            "Wir haben einen neuen Stromanbieter. Vom 1. März an bekommen wir Ökostrom von den "
            "Stadtwerken Freiburg, Tarif „Regio Natur“. Die Kilowattstunde kostet 29,8 Cent, "
            "monatlich kommen 11,90 Euro Grundpreis dazu, und die Preise sind 24 Monate "
            "garantiert. Bei 2.850 kWh Jahresverbrauch wie im Vorjahr zahlen wir 83 Euro Abschlag "
            "pro Monat. Um die Kündigung bei Vattenfall haben sich die Stadtwerke selbst "
            "gekümmert. Am 28. Februar muss jemand den Zähler mit der Nummer 1ESY1160 4421 73 "
            "ablesen und ein Foto vom Stand machen. Nach 12 Monaten bekommen wir 50 Euro "
            "Wechselbonus."
        ),
        "translation": (
            "The electricity contract has been switched: from 1 March, Stadtwerke Freiburg "
            "supplies green electricity on the 'Regio Natur' tariff. Unit price 29.8 cents per "
            "kWh, standing charge 11.90 euros a month, price guarantee for 24 months. Consumption "
            "last year was 2,850 kWh, which gives a monthly instalment of 83 euros. The new "
            "supplier handled the cancellation with the old one, Vattenfall. Meter number 1ESY1160 "
            "4421 73; read the meter on 28 February and take a photo. The 50-euro switching bonus "
            "is paid after 12 months."
        ),
        "changed": (
            "Der Stromvertrag ist gewechselt: Ab 1. März liefern die Stadtwerke Freiburg Ökostrom "
            "im Tarif „Regio Natur“. Arbeitspreis 32,4 Cent pro kWh, Grundpreis 11,90 Euro im "
            "Monat, Preisgarantie für 24 Monate. Der Verbrauch lag letztes Jahr bei 2.850 kWh, "
            "daraus ergibt sich ein Abschlag von 89 Euro im Monat. Die Kündigung beim alten "
            "Anbieter Vattenfall hat der neue Anbieter übernommen. Zählernummer 1ESY1160 4421 73; "
            "am 28. Februar den Zählerstand ablesen und fotografieren. Den Wechselbonus von 50 "
            "Euro gibt es nach 12 Monaten."
        ),
        "sibling": (
            "Seit dem 15. Januar haben wir Glasfaser von der Deutschen Glasfaser: 500 Mbit/s im "
            "Download, 250 Mbit/s im Upload. In den ersten 12 Monaten kostet der Anschluss 24,99 "
            "Euro, danach 49,99 Euro im Monat, Mindestlaufzeit 24 Monate. Als Router läuft eine "
            "FRITZ!Box 5530, das WLAN-Passwort steht auf der Karte im Flurschrank. Kündigung "
            "spätestens einen Monat vor Ablauf der Mindestlaufzeit."
        ),
    },
    {
        "lang": "en",
        "topic": "warehouse costs",
        "title": "BigQuery cost review in March",
        "content": (
            "BigQuery cost review from 6 March. Spend in February was 11,800 USD, up from 7,200 "
            "USD in November. The main driver is the dbt model fct_sessions, which scans the full "
            "9 TB events table on every hourly run. Decisions: partition events by event_date and "
            "cluster by user_id, make fct_sessions incremental with a 3-day lookback, and move to "
            "the Enterprise edition with a 200-slot baseline reservation. Expected spend after the "
            "changes is about 6,500 USD per month. Owner: Lukas Meier; next review in April."
        ),
        "paraphrase": (
            "We looked at BigQuery costs on 6 March. February came to 11,800 USD, against 7,200 "
            "USD back in November. Most of the increase comes from fct_sessions, a dbt model that "
            "reads the entire 9 TB events table each time it runs, which is hourly. What we "
            "agreed: the events table gets partitioned on event_date and clustered on user_id; "
            "fct_sessions becomes incremental and looks back 3 days; and we switch to the "
            "Enterprise edition with a baseline reservation of 200 slots. With all that in place "
            "we expect roughly 6,500 USD a month. Lukas Meier owns this, and we review it again in "
            "April."
        ),
        "translation": (
            "BigQuery-Kostenreview vom 6. März. Die Ausgaben lagen im Februar bei 11.800 USD, nach "
            "7.200 USD im November. Haupttreiber ist das dbt-Modell fct_sessions, das bei jedem "
            "stündlichen Lauf die komplette 9 TB große events-Tabelle scannt. Entscheidungen: "
            "events nach event_date partitionieren und nach user_id clustern, fct_sessions "
            "inkrementell mit 3 Tagen Lookback umbauen und auf die Enterprise-Edition mit einer "
            "Basisreservierung von 200 Slots wechseln. Nach den Änderungen werden etwa 6.500 USD "
            "pro Monat erwartet. Verantwortlich: Lukas Meier; nächstes Review im April."
        ),
        "changed": (
            "BigQuery cost review from 3 April, following up on 6 March. Spend in March was 8,900 "
            "USD, down from 11,800 USD in February. Partitioning events by event_date, clustering "
            "by user_id and making the dbt model fct_sessions incremental with a 3-day lookback "
            "are done. The Enterprise edition with a 200-slot baseline reservation turned out to "
            "cost more than it saved, so we went back to on-demand pricing with a quota of 1,500 "
            "USD per project per month. Expected spend is now about 5,800 USD per month. Owner: "
            "Lukas Meier; next review in June."
        ),
        "sibling": (
            "Airflow on Cloud Composer (Airflow 2.8) runs the warehouse DAGs. The daily load "
            "starts at 04:00 UTC and has an SLA of 06:00, so dashboards are fresh when the EU "
            "office starts. Tasks retry twice with a 10-minute delay before paging the data "
            "on-call. Backfills longer than 30 days must be announced in #data-eng, because they "
            "compete with the daily run for slots."
        ),
    },
    {
        "lang": "en",
        "topic": "book club",
        "title": "Book club October meeting and next book",
        "content": (
            "Book club, October meeting: we read 'The Remains of the Day' by Kazuo Ishiguro (258 "
            "pages). We meet on Thursday 17 October at 19:00 at Café Lumen on Bergmannstraße, "
            "table booked for 7. Ruth leads the discussion. The next book, chosen by a vote of 5 "
            "to 2, is 'Piranesi' by Susanna Clarke, for the meeting on 21 November at Anna's flat. "
            "Everyone pays 5 EUR per meeting for snacks. We agreed to keep to books under 350 "
            "pages during the autumn."
        ),
        "paraphrase": (
            "For October the book club took on Kazuo Ishiguro's 'The Remains of the Day', 258 "
            "pages. The meeting is at Café Lumen on Bergmannstraße on Thursday 17 October, 19:00, "
            "where a table for 7 is reserved, and Ruth will guide the conversation. By 5 votes to "
            "2 we picked Susanna Clarke's 'Piranesi' next; we discuss it on 21 November at Anna's "
            "place. Snacks are covered by 5 EUR from each person per meeting. Through the autumn "
            "we are sticking to books shorter than 350 pages."
        ),
        "translation": (
            "Lesekreis, Treffen im Oktober: Wir haben „The Remains of the Day“ von Kazuo Ishiguro "
            "gelesen (258 Seiten). Wir treffen uns am Donnerstag, 17. Oktober, um 19:00 Uhr im "
            "Café Lumen in der Bergmannstraße, Tisch für 7 reserviert. Ruth leitet die Diskussion. "
            "Das nächste Buch, gewählt mit 5 zu 2 Stimmen, ist „Piranesi“ von Susanna Clarke, für "
            "das Treffen am 21. November in Annas Wohnung. Jeder zahlt pro Treffen 5 EUR für "
            "Snacks. Wir haben vereinbart, im Herbst bei Büchern unter 350 Seiten zu bleiben."
        ),
        "changed": (
            "Book club, October meeting: we read 'The Remains of the Day' by Kazuo Ishiguro (258 "
            "pages). We meet on Thursday 24 October at 19:30 at Café Lumen on Bergmannstraße, "
            "table booked for 7. Ruth leads the discussion. The next book, chosen by a vote of 4 "
            "to 3, is 'Piranesi' by Susanna Clarke, for the meeting on 21 November at Anna's flat. "
            "Everyone pays 5 EUR per meeting for snacks. We agreed to keep to books under 350 "
            "pages during the autumn."
        ),
        "sibling": (
            "Library loans from the Kreuzberg public library: three books, all due on 2 November. "
            "They can be renewed online up to 3 times unless someone has reserved them. The late "
            "fee is 0.50 EUR per book per day. The reserved copy of 'Tomorrow, and Tomorrow, and "
            "Tomorrow' is waiting at the counter until 28 October."
        ),
    },
    {
        "lang": "de",
        "topic": "Gehaltsgespräch",
        "title": "Vorbereitung Gehaltsgespräch mit Frau Dietrich",
        "content": (
            "Vorbereitung auf das Gehaltsgespräch mit meiner Teamleiterin Frau Dietrich am 22. Mai "
            "um 14 Uhr. Aktuelles Bruttogehalt 64.000 Euro im Jahr, Ziel 72.000 Euro, Untergrenze "
            "69.000 Euro. Argumente: Ich habe die Migration auf das neue ERP-System geleitet, "
            "Abschluss im März, und zwei neue Kollegen eingearbeitet. Laut Stepstone-Gehaltsreport "
            "liegen vergleichbare Stellen in der Region München zwischen 68.000 und 78.000 Euro. "
            "Falls kein Budget da ist, als Alternative: 2 Tage mehr Homeoffice pro Woche und die "
            "PMP-Weiterbildung für etwa 3.200 Euro."
        ),
        "paraphrase": (
            "Am 22. Mai um 14 Uhr spreche ich mit Frau Dietrich, meiner Teamleiterin, über mein "
            "Gehalt. Im Moment bekomme ich 64.000 Euro brutto pro Jahr; anpeilen will ich 72.000 "
            "Euro, unter 69.000 Euro gehe ich nicht. Dafür spricht, dass ich den Umstieg auf das "
            "neue ERP-System verantwortet und im März abgeschlossen habe und außerdem zwei Neue "
            "eingearbeitet habe. Der Gehaltsreport von Stepstone nennt für ähnliche Positionen im "
            "Raum München 68.000 bis 78.000 Euro. Sollte das Geld fehlen, frage ich nach 2 "
            "zusätzlichen Homeoffice-Tagen pro Woche und nach der PMP-Weiterbildung, die rund "
            "3.200 Euro kostet."
        ),
        "translation": (
            "Preparation for the salary talk with my team lead, Ms Dietrich, on 22 May at 14:00. "
            "Current gross salary 64,000 euros a year, target 72,000 euros, lower limit 69,000 "
            "euros. Arguments: I led the migration to the new ERP system, completed in March, and "
            "onboarded two new colleagues. According to the Stepstone salary report, comparable "
            "positions in the Munich area pay between 68,000 and 78,000 euros. If there is no "
            "budget, as an alternative: 2 more days of home office per week and the PMP training "
            "for about 3,200 euros."
        ),
        "changed": (
            "Ergebnis des Gehaltsgesprächs mit meiner Teamleiterin Frau Dietrich am 22. Mai: Ab 1. "
            "Juli steigt mein Bruttogehalt von 64.000 auf 70.500 Euro im Jahr, also unter dem Ziel "
            "von 72.000 Euro, aber über der Untergrenze von 69.000 Euro. Überzeugt hat vor allem "
            "die Migration auf das neue ERP-System, die ich geleitet habe. Die PMP-Weiterbildung "
            "für etwa 3.200 Euro übernimmt die Firma, die 2 Tage mehr Homeoffice pro Woche wurden "
            "abgelehnt. Das nächste Gespräch ist für Januar vereinbart."
        ),
        "sibling": (
            "Urlaubsplanung für dieses Jahr: 30 Tage Urlaub plus 6 Resttage aus dem Vorjahr, die "
            "bis zum 31. März genommen werden müssen, sonst verfallen sie. Fest eingetragen sind "
            "die zwei Wochen im August und die Brückentage nach Christi Himmelfahrt und "
            "Fronleichnam. Urlaubsanträge über 5 Tage bitte mindestens vier Wochen vorher im "
            "Personalportal stellen."
        ),
    },
    {
        "lang": "en",
        "topic": "ssh access",
        "title": "SSH access policy for the production bastion",
        "content": (
            "SSH access policy for the production bastion bastion-prod-1 (Ubuntu 22.04). Only "
            "ed25519 keys are accepted; RSA keys were disabled on 15 January. Access goes through "
            "Teleport 15, which issues short-lived certificates valid for 8 hours, so nobody keeps "
            "static keys in authorized_keys. Access requires membership in the Okta group "
            "prod-ssh, currently 11 engineers. Sessions are recorded and kept for 365 days. The "
            "break-glass key is stored in the 1Password vault 'Infra Emergency', owned by Grace "
            "and Omar, and rotated every 90 days."
        ),
        "paraphrase": (
            "Rules for logging in to bastion-prod-1, our production bastion running Ubuntu 22.04: "
            "it accepts ed25519 keys and nothing else, since RSA was switched off on 15 January. "
            "Logins are brokered by Teleport 15, whose certificates expire after 8 hours, which "
            "means no one has permanent keys in authorized_keys. You need to be in the Okta group "
            "prod-ssh to get in; that is 11 engineers at the moment. Every session is recorded, "
            "and recordings are retained for 365 days. For emergencies there is a break-glass key "
            "in the 1Password vault 'Infra Emergency'; Grace and Omar own it and rotate it every "
            "90 days."
        ),
        "translation": (
            "SSH-Zugriffsregeln für den Produktions-Bastion-Host bastion-prod-1 (Ubuntu 22.04). Es "
            "werden nur ed25519-Schlüssel akzeptiert; RSA-Schlüssel wurden am 15. Januar "
            "deaktiviert. Der Zugang läuft über Teleport 15, das kurzlebige Zertifikate mit 8 "
            "Stunden Gültigkeit ausstellt, sodass niemand statische Schlüssel in authorized_keys "
            "hat. Voraussetzung ist die Mitgliedschaft in der Okta-Gruppe prod-ssh, derzeit 11 "
            "Engineers. Sitzungen werden aufgezeichnet und 365 Tage aufbewahrt. Der "
            "Notfallschlüssel liegt im 1Password-Tresor „Infra Emergency“, verantwortlich sind "
            "Grace und Omar, und er wird alle 90 Tage rotiert."
        ),
        "changed": (
            "SSH access policy for the production bastion bastion-prod-1 (Ubuntu 22.04). Only "
            "ed25519 keys are accepted; RSA keys were disabled on 15 January. Access goes through "
            "Teleport 15, which issues short-lived certificates valid for 12 hours, so nobody "
            "keeps static keys in authorized_keys. Access requires membership in the Okta group "
            "prod-ssh, currently 11 engineers. Sessions are recorded and kept for 180 days. The "
            "break-glass key is stored in the 1Password vault 'Infra Emergency', owned by Grace "
            "and Omar, and rotated every 90 days."
        ),
        "sibling": (
            "Password manager rollout: 1Password Business for all 140 employees, mandatory from 1 "
            "March. Shared vaults exist per team; personal vaults stay private and are not visible "
            "to admins. Admins must use a YubiKey 5 NFC as second factor, everyone else may use an "
            "authenticator app. Offboarding removes access within 1 hour through the Okta SCIM "
            "sync."
        ),
    },
    {
        "lang": "en",
        "topic": "camera gear",
        "title": "Camera kit for the Iceland trip",
        "content": (
            "Camera kit for the Iceland trip in September. Body: Fujifilm X-T5 with two spare "
            "NP-W235 batteries, since the cold drains them fast. Lenses: the XF 16-55mm f/2.8 as "
            "the main lens and the XF 70-300mm for wildlife and puffins. Filters: a 6-stop ND and "
            "a circular polariser, both 77 mm. Tripod: Peak Design Travel, 1.56 kg. Storage: two "
            "128 GB SD cards, backed up every evening to the 1 TB Samsung T7. The camera bag "
            "weighs about 4.2 kg in total, well under the Icelandair cabin limit of 10 kg."
        ),
        "paraphrase": (
            "What goes into the camera bag for Iceland this September: the Fujifilm X-T5, plus two "
            "extra NP-W235 batteries because cold weather empties them quickly. Most shots will be "
            "on the XF 16-55mm f/2.8; for animals, puffins included, the XF 70-300mm comes along. "
            "I'm packing a circular polariser and a 6-stop ND filter, each 77 mm. The tripod is "
            "the 1.56 kg Peak Design Travel. Photos go on two 128 GB SD cards and get copied each "
            "night to a 1 TB Samsung T7. All together the bag comes to roughly 4.2 kg, comfortably "
            "below Icelandair's 10 kg cabin allowance."
        ),
        "translation": (
            "Kameraausrüstung für die Islandreise im September. Gehäuse: Fujifilm X-T5 mit zwei "
            "Ersatzakkus NP-W235, weil die Kälte sie schnell leert. Objektive: das XF 16-55mm "
            "f/2.8 als Hauptobjektiv und das XF 70-300mm für Tiere und Papageitaucher. Filter: ein "
            "ND-Filter mit 6 Blendenstufen und ein Zirkularpolfilter, beide 77 mm. Stativ: Peak "
            "Design Travel, 1,56 kg. Speicher: zwei SD-Karten mit 128 GB, jeden Abend Sicherung "
            "auf die 1-TB-Samsung-T7. Die Kameratasche wiegt insgesamt etwa 4,2 kg, deutlich unter "
            "dem Handgepäcklimit von Icelandair mit 10 kg."
        ),
        "changed": (
            "Camera kit for the Iceland trip in September, revised after a test weekend. Body: "
            "Fujifilm X-T5 with two spare NP-W235 batteries, since the cold drains them fast. "
            "Lenses: the XF 16-55mm f/2.8 stays as the main lens, but the XF 70-300mm stays at "
            "home; instead I rented an XF 100-400mm from Calumet for 95 EUR for the 10 days, for "
            "wildlife and puffins. Filters: a 6-stop ND and a circular polariser, both 77 mm. "
            "Storage: two 128 GB SD cards, backed up every evening to the 1 TB Samsung T7. The "
            "camera bag now weighs about 5.1 kg."
        ),
        "sibling": (
            "Lightroom workflow: import into the yearly catalogue with the folder structure "
            "YYYY/YYYY-MM-DD_place, add keywords on import and reject weak shots in a first pass "
            "with the X key. Web exports are JPEG at 2048 px on the long edge, quality 85, with "
            "metadata stripped except copyright. The catalogue is backed up every Sunday to the "
            "Synology NAS."
        ),
    },
    {
        "lang": "de",
        "topic": "Alerting Bestellservice",
        "title": "Alerting-Regeln für den Bestellservice",
        "content": (
            "Alerting-Regeln für den Bestellservice in Grafana 10.4, abgestimmt im Ops-Meeting am "
            "8. April. Ein kritischer Alarm wird ausgelöst, wenn die Fehlerquote der API fünf "
            "Minuten lang über 2 Prozent liegt oder die p99-Latenz 1.500 ms überschreitet; er geht "
            "über PagerDuty an die Rufbereitschaft. Warnungen bei mehr als 80 Prozent CPU über 15 "
            "Minuten landen nur im Slack-Kanal #bestellung-alerts. Die Rufbereitschaft wechselt "
            "jeden Montag um 10 Uhr, im Rotationsplan stehen Jana, Erik, Selin und Paul. Ruhezeit "
            "für Warnungen: 22 bis 7 Uhr."
        ),
        "paraphrase": (
            "Im Ops-Meeting am 8. April haben wir festgelegt, wann Grafana 10.4 beim "
            "Bestellservice Alarm schlägt. Kritisch wird es, sobald mehr als 2 Prozent der "
            "API-Aufrufe fünf Minuten am Stück fehlschlagen oder die p99-Latenz über 1.500 ms "
            "steigt; dann alarmiert PagerDuty die Rufbereitschaft. Bleibt die CPU 15 Minuten lang "
            "über 80 Prozent, gibt es bloß eine Warnung im Slack-Kanal #bestellung-alerts. Die "
            "Bereitschaft übergibt immer montags um 10 Uhr, reihum zwischen Jana, Erik, Selin und "
            "Paul. Zwischen 22 und 7 Uhr bleiben Warnungen stumm."
        ),
        "translation": (
            "Alerting rules for the order service in Grafana 10.4, agreed in the ops meeting on 8 "
            "April. A critical alert fires when the API error rate is above 2 percent for five "
            "minutes or the p99 latency exceeds 1,500 ms; it goes to the on-call engineer via "
            "PagerDuty. Warnings for more than 80 percent CPU over 15 minutes only go to the Slack "
            "channel #bestellung-alerts. On-call changes every Monday at 10:00; the rotation is "
            "Jana, Erik, Selin and Paul. Quiet hours for warnings: 22:00 to 07:00."
        ),
        "changed": (
            "Alerting-Regeln für den Bestellservice in Grafana 10.4, abgestimmt im Ops-Meeting am "
            "8. April. Ein kritischer Alarm wird ausgelöst, wenn die Fehlerquote der API fünf "
            "Minuten lang über 1 Prozent liegt oder die p99-Latenz 800 ms überschreitet; er geht "
            "über PagerDuty an die Rufbereitschaft. Warnungen bei mehr als 80 Prozent CPU über 15 "
            "Minuten landen nur im Slack-Kanal #bestellung-alerts. Die Rufbereitschaft wechselt "
            "jeden Montag um 10 Uhr, im Rotationsplan stehen Jana, Erik, Selin und Paul. Ruhezeit "
            "für Warnungen: 22 bis 7 Uhr."
        ),
        "sibling": (
            "Unsere öffentliche Statusseite läuft unter status.example.de auf Atlassian "
            "Statuspage. Bei Störungen ab Schweregrad 2 legt die Rufbereitschaft innerhalb von 15 "
            "Minuten einen Eintrag an und aktualisiert ihn mindestens alle 30 Minuten. "
            "Textvorlagen auf Deutsch und Englisch liegen im Confluence-Bereich "
            "„Störungskommunikation“. Geplante Wartungen werden mindestens 72 Stunden vorher "
            "angekündigt."
        ),
    },
    {
        "lang": "en",
        "topic": "podcast production",
        "title": "Production setup for the company podcast",
        "content": (
            "Podcast setup for 'Shipping Slowly', our company podcast. We record remotely on "
            "Riverside.fm at 48 kHz, each host on a Shure MV7 over USB. Episodes run 35-45 minutes "
            "and are published every other Wednesday at 07:00 on Spotify and Apple Podcasts "
            "through Buzzsprout (18 USD per month plan). Kim edits in Descript with a turnaround "
            "of 4 days. Loudness target is -16 LUFS with a true peak of -1 dB. Guests sign the "
            "release form in DocuSign before recording. Episode 12 with Ada from Figma is recorded "
            "on 9 May."
        ),
        "paraphrase": (
            "Here's how 'Shipping Slowly', the podcast we run as a company, gets made. The hosts "
            "sit at home with Shure MV7 microphones plugged in via USB and record on Riverside.fm "
            "at 48 kHz. An episode lasts between 35 and 45 minutes; Buzzsprout, on its 18 USD "
            "monthly plan, pushes it to Spotify and Apple Podcasts at 07:00 on alternate "
            "Wednesdays. Editing is Kim's job, done in Descript within 4 days. We master to -16 "
            "LUFS and keep true peak at -1 dB. No guest is recorded before signing the release in "
            "DocuSign. On 9 May we record episode 12, with Ada from Figma."
        ),
        "translation": (
            "Podcast-Setup für „Shipping Slowly“, unseren Firmenpodcast. Wir nehmen remote mit "
            "Riverside.fm in 48 kHz auf, jeder Host mit einem Shure MV7 über USB. Folgen dauern 35 "
            "bis 45 Minuten und erscheinen jeden zweiten Mittwoch um 07:00 Uhr auf Spotify und "
            "Apple Podcasts über Buzzsprout (Tarif für 18 USD im Monat). Kim schneidet in "
            "Descript, Bearbeitungszeit 4 Tage. Lautheitsziel ist -16 LUFS bei einem True Peak von "
            "-1 dB. Gäste unterschreiben vor der Aufnahme die Freigabe in DocuSign. Folge 12 mit "
            "Ada von Figma wird am 9. Mai aufgenommen."
        ),
        "changed": (
            "Podcast update for 'Shipping Slowly', our company podcast, after episode 12 with Ada "
            "from Figma: downloads grew to about 3,400 per episode, so we are switching from every "
            "other Wednesday to a weekly episode every Wednesday at 07:00. Hosting moves from "
            "Buzzsprout to Transistor (19 USD per month) on 1 June, and the feed is redirected. We "
            "still record remotely on Riverside.fm at 48 kHz with Shure MV7 microphones. Kim can't "
            "edit weekly alone, so a freelancer, Joel, takes every second episode in Descript. "
            "Loudness target stays at -16 LUFS."
        ),
        "sibling": (
            "YouTube channel checklist: thumbnails 1280 x 720 px with at most four words of text, "
            "uploads on Tuesdays at 17:00 CET, and chapters in the description for anything longer "
            "than 8 minutes. Captions are generated in Descript and corrected by hand before "
            "publishing. The channel has 6,200 subscribers; the goal for the year is 10,000."
        ),
    },
    {
        "lang": "de",
        "topic": "Weihnachten Familie",
        "title": "Weihnachten in Regensburg: Ablauf und Einkauf",
        "content": (
            "Weihnachten bei uns in Regensburg: Am 24. Dezember kommen 9 Personen, Bescherung um "
            "18 Uhr, danach gibt es traditionell Würstl mit Kartoffelsalat, den Oma Rosi "
            "mitbringt. Am 25. Dezember um 13 Uhr Gänsebraten: Die Gans (5,5 kg) ist beim "
            "Geflügelhof Seidl bestellt, Abholung am 23. Dezember zwischen 9 und 12 Uhr, Preis "
            "16,90 Euro pro Kilo. Dazu Knödel und Blaukraut. Onkel Franz bringt den Wein mit, Lena "
            "macht das Dessert, ein Tiramisu. Beim Schrottwichteln gilt ein Budget von 10 Euro."
        ),
        "paraphrase": (
            "Heiligabend, den 24. Dezember, feiern wir wieder bei uns in Regensburg, diesmal zu "
            "neunt. Um 18 Uhr ist Bescherung, und anschließend essen wir wie jedes Jahr Würstl und "
            "Oma Rosis Kartoffelsalat, den sie selbst mitbringt. Am ersten Feiertag, dem 25. "
            "Dezember, steht um 13 Uhr die Gans auf dem Tisch. Bestellt haben wir ein Tier mit 5,5 "
            "kg beim Geflügelhof Seidl, das Kilo zu 16,90 Euro; abholen können wir es am 23. "
            "Dezember von 9 bis 12 Uhr. Als Beilagen gibt es Blaukraut und Knödel. Für den Wein "
            "sorgt Onkel Franz, Lena bereitet als Nachspeise ein Tiramisu zu. Die Geschenke beim "
            "Schrottwichteln dürfen höchstens 10 Euro kosten."
        ),
        "translation": (
            "Christmas at our place in Regensburg: on 24 December 9 people are coming, presents at "
            "18:00, and then traditionally sausages with potato salad, which Grandma Rosi brings. "
            "On 25 December, roast goose at 13:00: the goose (5.5 kg) is ordered from the Seidl "
            "poultry farm, pickup on 23 December between 9:00 and 12:00, price 16.90 euros per "
            "kilo. With dumplings and red cabbage. Uncle Franz brings the wine, Lena makes the "
            "dessert, a tiramisu. For the white elephant gift exchange the budget is 10 euros."
        ),
        "changed": (
            "Weihnachten bei uns in Regensburg: Am 24. Dezember kommen 11 Personen, Bescherung um "
            "18 Uhr, danach gibt es traditionell Würstl mit Kartoffelsalat, den Oma Rosi "
            "mitbringt. Am 25. Dezember um 13 Uhr Gänsebraten: Die Gans (6,5 kg) ist beim "
            "Geflügelhof Seidl bestellt, Abholung am 23. Dezember zwischen 9 und 12 Uhr, Preis "
            "16,90 Euro pro Kilo. Dazu Knödel und Blaukraut. Onkel Franz bringt den Wein mit, Lena "
            "macht das Dessert, ein Tiramisu. Beim Schrottwichteln gilt ein Budget von 10 Euro."
        ),
        "sibling": (
            "Papas 70. Geburtstag feiern wir am 8. März im Gasthaus Zur Post in Kelheim. Das "
            "Nebenzimmer ist für 35 Personen reserviert, das Menü kostet 42 Euro pro Person ohne "
            "Getränke. Als Geschenk gibt es eine Ballonfahrt über das Altmühltal für 289 Euro, die "
            "wir Geschwister durch drei teilen. Einladungen gehen bis Ende Januar raus, Zusagen "
            "sammelt meine Schwester Katrin."
        ),
    },
    {
        "lang": "en",
        "topic": "model training",
        "title": "Ticket classifier v4 training run",
        "content": (
            "Training run for the support ticket classifier v4. Base model DeBERTa-v3-base, "
            "fine-tuned on 182,000 labelled tickets from January 2022 to March 2024 across 23 "
            "classes. Hyperparameters: learning rate 2e-5, batch size 32, 4 epochs, max sequence "
            "length 384. Training took 6 h 40 min on one A100 80 GB. On the held-out test set of "
            "9,000 tickets macro F1 is 0.871, up from 0.843 for v3; the weakest class is 'billing "
            "dispute' at 0.71. Decision: ship v4 to 20 percent of traffic on 13 May. Owner: Farah."
        ),
        "paraphrase": (
            "Version 4 of the classifier for support tickets is trained. We took DeBERTa-v3-base "
            "and fine-tuned it on 182,000 labelled tickets, covering January 2022 through March "
            "2024 and 23 classes. Settings were a learning rate of 2e-5, batches of 32, 4 epochs, "
            "and sequences capped at 384 tokens. A single A100 80 GB needed 6 h 40 min. Measured "
            "on 9,000 held-out test tickets, macro F1 reaches 0.871, compared with 0.843 for v3. "
            "'Billing dispute' remains the hardest class at 0.71. We agreed that v4 gets 20 "
            "percent of traffic starting 13 May. Farah owns the model."
        ),
        "translation": (
            "Trainingslauf für den Support-Ticket-Klassifikator v4. Basismodell DeBERTa-v3-base, "
            "feinjustiert auf 182.000 gelabelten Tickets von Januar 2022 bis März 2024 mit 23 "
            "Klassen. Hyperparameter: Lernrate 2e-5, Batchgröße 32, 4 Epochen, maximale "
            "Sequenzlänge 384. Das Training dauerte 6 h 40 min auf einer A100 mit 80 GB. Auf dem "
            "zurückgehaltenen Testset von 9.000 Tickets liegt der Makro-F1 bei 0,871, nach 0,843 "
            "bei v3; die schwächste Klasse ist „billing dispute“ mit 0,71. Entscheidung: v4 geht "
            "am 13. Mai an 20 Prozent des Traffics. Verantwortlich: Farah."
        ),
        "changed": (
            "Update on the support ticket classifier v4 (DeBERTa-v3-base, fine-tuned on 182,000 "
            "labelled tickets across 23 classes), 20 May. After a week at 20 percent of traffic "
            "the decision is reversed and v4 is rolled back to v3. In production macro F1 dropped "
            "to 0.82 on Spanish and Portuguese tickets, which were only 3 percent of the training "
            "data. Plan: train v4.1 with 25,000 extra tickets in those languages, same "
            "hyperparameters (learning rate 2e-5, batch size 32, 4 epochs), starting on 3 June. "
            "Owner: Farah."
        ),
        "sibling": (
            "Labelling guidelines for the ticket classifier: annotators work in Label Studio, and "
            "every ticket is labelled independently by 2 people. Disagreements go to the lead "
            "annotator, Rosa, who decides within 2 working days. Current agreement is a Cohen's "
            "kappa of 0.78. Tickets mentioning both a refund and a bug get the label of the "
            "customer's first request."
        ),
    },
    {
        "lang": "en",
        "topic": "accessibility audit",
        "title": "Accessibility audit of the customer portal",
        "content": (
            "Accessibility audit of the customer portal by the agency Inclusive Web, report "
            "delivered on 5 August. They tested 24 screens against WCAG 2.2 AA with NVDA, "
            "VoiceOver and keyboard only. Findings: 38 issues, 9 of them critical, mostly missing "
            "form labels on the address forms, a focus trap in the date picker, and a contrast of "
            "3.2:1 on the grey buttons where 4.5:1 is required. Plan: fix all critical issues by "
            "30 September and the rest by the end of the year, then a re-test, quoted at 4,800 "
            "EUR. Owner: Daniel Okafor."
        ),
        "paraphrase": (
            "Inclusive Web, the agency we hired, handed over its accessibility report on the "
            "customer portal on 5 August. Using NVDA, VoiceOver and nothing but the keyboard, they "
            "checked 24 screens against WCAG 2.2 AA. They found 38 problems, and 9 are critical: "
            "the address forms lack labels, the date picker traps focus, and the grey buttons only "
            "reach 3.2:1 contrast instead of the required 4.5:1. By 30 September every critical "
            "item should be fixed, everything else before the year is out. After that comes a "
            "re-test, for which they quoted 4,800 EUR. Daniel Okafor is the owner."
        ),
        "translation": (
            "Barrierefreiheits-Audit des Kundenportals durch die Agentur Inclusive Web, Bericht "
            "geliefert am 5. August. Getestet wurden 24 Bildschirme nach WCAG 2.2 AA mit NVDA, "
            "VoiceOver und nur mit der Tastatur. Ergebnis: 38 Probleme, davon 9 kritisch, vor "
            "allem fehlende Formularbeschriftungen bei den Adressformularen, eine Fokusfalle im "
            "Datumswähler und ein Kontrast von 3,2:1 bei den grauen Buttons, wo 4,5:1 verlangt "
            "ist. Plan: alle kritischen Punkte bis zum 30. September beheben, den Rest bis "
            "Jahresende, danach ein erneuter Test, angeboten für 4.800 EUR. Verantwortlich: Daniel "
            "Okafor."
        ),
        "changed": (
            "Re-test of the customer portal by the agency Inclusive Web, report delivered on 14 "
            "October. Of the 38 issues from the August audit against WCAG 2.2 AA, 31 are fixed, "
            "including all 9 critical ones such as the missing form labels and the focus trap in "
            "the date picker. Still open: a contrast of 3.9:1 on the secondary buttons, where "
            "4.5:1 is required, and a missing skip link. New finding: the third-party chat widget "
            "cannot be reached by keyboard. Decision: replace the chat widget by 31 December; no "
            "further re-test is booked. Owner: Daniel Okafor."
        ),
        "sibling": (
            "Colour and sizing rules in the design system: body text is #1A1A1A on #FFFFFF, and "
            "any text colour must reach at least 4.5:1 contrast, 3:1 for text above 24 px. Touch "
            "targets are at least 44 x 44 px. Focus rings are 2 px solid #0057D9 with a 2 px "
            "offset and must never be removed with outline: none. Tokens are defined in "
            "tokens/colors.json."
        ),
    },
    {
        "lang": "de",
        "topic": "Bahnreise Wien",
        "title": "Bahnreise nach Wien zu Claras Hochzeit",
        "content": (
            "Bahnreise von Hamburg nach Wien zur Hochzeit von Clara am 7. September. Hinfahrt am "
            "Donnerstag, 5. September, mit dem ÖBB Nightjet NJ 490 ab Hamburg-Altona um 19:58 Uhr, "
            "Ankunft in Wien Hbf um 9:56 Uhr. Gebucht ist ein Schlafwagenabteil für zwei Personen "
            "mit Dusche, 389 Euro inklusive Frühstück. Rückfahrt am Sonntag, 8. September, mit dem "
            "ICE über München, Abfahrt 8:15 Uhr, Sparpreis 79,90 Euro pro Person, BahnCard 25 "
            "schon abgezogen. In Wien schlafen wir 2 Nächte im Hotel Josefine. Die Fahrkarten "
            "liegen in der DB-App."
        ),
        "paraphrase": (
            "Zu Claras Hochzeit am 7. September fahren wir mit der Bahn von Hamburg nach Wien. Los "
            "geht es am Donnerstag, dem 5. September, um 19:58 Uhr in Hamburg-Altona mit dem "
            "Nightjet NJ 490 der ÖBB, der um 9:56 Uhr in Wien Hbf ankommt. Wir haben ein "
            "Zweier-Schlafwagenabteil mit eigener Dusche genommen, das mit Frühstück 389 Euro "
            "kostet. Zurück geht es am Sonntag, 8. September, um 8:15 Uhr im ICE über München; der "
            "Sparpreis beträgt 79,90 Euro pro Kopf, die BahnCard 25 ist bereits eingerechnet. Für "
            "die 2 Nächte in Wien ist das Hotel Josefine gebucht. Alle Tickets sind in der DB-App "
            "gespeichert."
        ),
        "translation": (
            "Train trip from Hamburg to Vienna for Clara's wedding on 7 September. Outbound on "
            "Thursday, 5 September, on the ÖBB Nightjet NJ 490 from Hamburg-Altona at 19:58, "
            "arriving at Wien Hbf at 9:56. We booked a sleeper compartment for two with a shower, "
            "389 euros including breakfast. Return on Sunday, 8 September, by ICE via Munich, "
            "departing at 8:15, saver fare 79.90 euros per person, BahnCard 25 already deducted. "
            "In Vienna we stay 2 nights at Hotel Josefine. The tickets are in the DB app."
        ),
        "changed": (
            "Bahnreise von Hamburg nach Wien zur Hochzeit von Clara am 7. September. Hinfahrt am "
            "Donnerstag, 5. September, mit dem ÖBB Nightjet NJ 490 ab Hamburg-Altona um 19:58 Uhr, "
            "Ankunft in Wien Hbf um 9:56 Uhr. Gebucht ist ein Schlafwagenabteil für zwei Personen "
            "mit Dusche, 429 Euro inklusive Frühstück. Rückfahrt am Sonntag, 8. September, mit dem "
            "ICE über München, Abfahrt 13:15 Uhr, Sparpreis 79,90 Euro pro Person, BahnCard 25 "
            "schon abgezogen. In Wien schlafen wir 2 Nächte im Hotel Josefine. Die Fahrkarten "
            "liegen in der DB-App."
        ),
        "sibling": (
            "Das Deutschlandticket läuft als Abo über die HVV-App und kostet 58 Euro im Monat, "
            "abgebucht jeweils am 1. Es gilt bundesweit in Bussen, U- und S-Bahnen und "
            "Regionalzügen, aber nicht im ICE oder IC. Das Fahrrad ist nicht inklusive, dafür "
            "braucht es eine eigene Karte. Kündigen muss man bis zum 10. des Vormonats, sonst "
            "verlängert es sich automatisch."
        ),
    },
    {
        "lang": "en",
        "topic": "office lease",
        "title": "Berlin team moves to Factory Görlitzer Park",
        "content": (
            "Office decision from 12 March: the Berlin team (14 people) moves from the WeWork at "
            "Sony Center to a private office at Factory Görlitzer Park on 1 May. It has 220 square "
            "metres, 16 desks and two meeting rooms; rent is 7,900 EUR per month all-in, including "
            "internet and cleaning, on a 12-month term with 3 months' notice. The deposit is "
            "15,800 EUR. The current WeWork membership at 9,400 EUR per month is cancelled as of "
            "30 April. Kaiser Umzüge handles the move on 27 April. Office manager: Olga Petrenko."
        ),
        "paraphrase": (
            "On 12 March we decided that the 14 people in Berlin leave the WeWork at Sony Center "
            "and take their own office at Factory Görlitzer Park, starting 1 May. The space is 220 "
            "square metres with 16 desks and two meeting rooms. For 7,900 EUR a month we get "
            "everything, internet and cleaning included; the lease runs 12 months and can be ended "
            "with 3 months' notice. A deposit of 15,800 EUR is required. We end our WeWork "
            "membership, which costs 9,400 EUR monthly, on 30 April. The movers, Kaiser Umzüge, "
            "come on 27 April. Olga Petrenko manages the office."
        ),
        "translation": (
            "Büroentscheidung vom 12. März: Das Berliner Team (14 Personen) zieht zum 1. Mai vom "
            "WeWork am Sony Center in ein eigenes Büro in der Factory Görlitzer Park. Es hat 220 "
            "Quadratmeter, 16 Arbeitsplätze und zwei Besprechungsräume; die Miete beträgt pauschal "
            "7.900 EUR pro Monat inklusive Internet und Reinigung, bei 12 Monaten Laufzeit und 3 "
            "Monaten Kündigungsfrist. Die Kaution liegt bei 15.800 EUR. Die bisherige "
            "WeWork-Mitgliedschaft für 9.400 EUR im Monat ist zum 30. April gekündigt. Kaiser "
            "Umzüge übernimmt den Umzug am 27. April. Office Managerin: Olga Petrenko."
        ),
        "changed": (
            "Office update from 2 April: the Berlin team's move from the WeWork at Sony Center to "
            "the private office at Factory Görlitzer Park is postponed from 1 May to 1 July, "
            "because the fit-out of the meeting rooms is delayed. We extended the WeWork "
            "membership for two months at 9,400 EUR per month. Rent at Factory stays at 7,900 EUR "
            "per month all-in, but the landlord gives us the first month free as compensation. The "
            "deposit of 15,800 EUR is already paid. Kaiser Umzüge now handles the move on 28 June. "
            "Office manager: Olga Petrenko."
        ),
        "sibling": (
            "Home office equipment policy: every employee gets a budget of 600 EUR every two years "
            "for desk, chair or lighting, reimbursed against receipts. Monitors are ordered "
            "centrally through Bechtle; the standard model is the Dell U2723QE. Headsets (Jabra "
            "Evolve2 65) are handed out on the first day. Equipment stays company property and is "
            "returned when someone leaves."
        ),
    },
    {
        "lang": "en",
        "topic": "terraform state",
        "title": "Terraform state and workflow for the infra repo",
        "content": (
            "Terraform setup for the infra repo: Terraform 1.7.5 with AWS provider 5.40. State "
            "lives in the S3 bucket acme-tf-state in eu-central-1 with versioning on, and locking "
            "uses the DynamoDB table tf-locks. There is one state per environment and component, "
            "for example prod/network and prod/eks, 23 states in total. Atlantis runs plans on "
            "every PR; applies need one approval from the platform team and are triggered with the "
            "comment 'atlantis apply'. Drift detection runs nightly at 03:00 and posts to "
            "#infra-drift."
        ),
        "paraphrase": (
            "How the infra repo handles Terraform: we run version 1.7.5 and the AWS provider at "
            "5.40. Every state file is stored in acme-tf-state, a versioned S3 bucket in "
            "eu-central-1, and the DynamoDB table tf-locks takes care of locking. Each combination "
            "of environment and component, such as prod/network or prod/eks, has a state of its "
            "own; that makes 23 in all. Whenever a PR is opened, Atlantis produces a plan. "
            "Applying requires a platform team approval and then a comment reading 'atlantis "
            "apply'. Each night at 03:00 a drift check runs and reports in #infra-drift."
        ),
        "translation": (
            "Terraform-Setup für das Infra-Repo: Terraform 1.7.5 mit AWS-Provider 5.40. Der State "
            "liegt im S3-Bucket acme-tf-state in eu-central-1 mit aktivierter Versionierung, das "
            "Locking läuft über die DynamoDB-Tabelle tf-locks. Es gibt einen State pro Umgebung "
            "und Komponente, zum Beispiel prod/network und prod/eks, insgesamt 23 States. Atlantis "
            "erstellt bei jedem PR einen Plan; ein Apply braucht eine Freigabe aus dem "
            "Platform-Team und wird mit dem Kommentar „atlantis apply“ ausgelöst. Die "
            "Drift-Erkennung läuft jede Nacht um 03:00 Uhr und meldet sich in #infra-drift."
        ),
        "changed": (
            "Terraform setup for the infra repo: Terraform 1.8.2 with AWS provider 5.40. State "
            "lives in the S3 bucket acme-tf-state in eu-central-1 with versioning on, and locking "
            "uses the DynamoDB table tf-locks. There is one state per environment and component, "
            "for example prod/network and prod/eks, 23 states in total. Atlantis runs plans on "
            "every PR; applies need one approval from the platform team and are triggered with the "
            "comment 'atlantis apply'. Drift detection runs nightly at 05:00 and posts to "
            "#infra-drift."
        ),
        "sibling": (
            "AWS account layout: six accounts under AWS Organizations, namely management, "
            "security, shared-services, dev, staging and prod. A service control policy denies "
            "every region except eu-central-1 and eu-west-1. People sign in through IAM Identity "
            "Center with Okta as the identity provider, and nobody has IAM users with long-lived "
            "access keys. CloudTrail from all accounts lands in the security account."
        ),
    },
    {
        "lang": "de",
        "topic": "Chorkonzert",
        "title": "Frühjahrskonzert von Vox Nova: Proben und Termine",
        "content": (
            "Chor „Vox Nova“: Das Frühjahrskonzert ist am Sonntag, 27. April, um 17 Uhr in der "
            "Lutherkirche Wiesbaden. Auf dem Programm steht Mozarts Requiem in d-Moll mit dem "
            "Kammerorchester Rheingau, die Leitung hat Kantorin Miriam Haas. Zusätzliche Proben "
            "gibt es samstags von 10 bis 13 Uhr am 5., 12. und 19. April, die Generalprobe ist am "
            "26. April um 15 Uhr. Eintritt 18 Euro, ermäßigt 12 Euro. Ich singe im Alt, die Noten "
            "sind die Bärenreiter-Ausgabe. Konzertkleidung ganz in Schwarz, dazu der dunkelrote "
            "Schal."
        ),
        "paraphrase": (
            "Vox Nova gibt sein Frühjahrskonzert am Sonntag, 27. April, ab 17 Uhr in der "
            "Wiesbadener Lutherkirche. Gesungen wird das Requiem in d-Moll von Mozart, begleitet "
            "vom Kammerorchester Rheingau und dirigiert von unserer Kantorin Miriam Haas. Vorher "
            "kommen drei Extraproben dazu, jeweils samstags am 5., 12. und 19. April zwischen 10 "
            "und 13 Uhr; zur Generalprobe treffen wir uns am 26. April um 15 Uhr. Karten kosten 18 "
            "Euro, mit Ermäßigung 12 Euro. Meine Stimme ist der Alt, gesungen wird aus der Ausgabe "
            "von Bärenreiter. Wir tragen Schwarz und den dunkelroten Schal."
        ),
        "translation": (
            "Choir 'Vox Nova': the spring concert is on Sunday, 27 April, at 17:00 in the "
            "Lutherkirche in Wiesbaden. The programme is Mozart's Requiem in D minor with the "
            "Kammerorchester Rheingau, conducted by cantor Miriam Haas. Extra rehearsals take "
            "place on Saturdays from 10:00 to 13:00 on 5, 12 and 19 April, and the dress rehearsal "
            "is on 26 April at 15:00. Admission 18 euros, reduced 12 euros. I sing alto; the score "
            "is the Bärenreiter edition. Concert dress all in black, with the dark red scarf."
        ),
        "changed": (
            "Chor „Vox Nova“: Das Frühjahrskonzert am Sonntag, 27. April, um 17 Uhr in der "
            "Lutherkirche Wiesbaden findet ohne das Kammerorchester Rheingau statt, weil die "
            "Förderung der Stadt nicht bewilligt wurde. Statt Mozarts Requiem singen wir deshalb "
            "ein A-cappella-Programm mit Motetten von Brahms und Mendelssohn, die Leitung hat "
            "weiter Kantorin Miriam Haas. Die Zusatzproben am 5., 12. und 19. April bleiben, die "
            "Generalprobe ist am 26. April um 15 Uhr. Eintritt 15 Euro, ermäßigt 10 Euro. "
            "Konzertkleidung ganz in Schwarz, dazu der dunkelrote Schal."
        ),
        "sibling": (
            "Klavierunterricht für Mia an der Musikschule Wiesbaden bei Herrn Okonkwo: dienstags "
            "um 16:15 Uhr, 30 Minuten Einzelunterricht, 78 Euro im Monat, in den Schulferien kein "
            "Unterricht. Sie übt gerade die Sonatine in G-Dur von Beethoven. Das Vorspiel der "
            "Klavierklasse ist am 14. Juni um 18 Uhr im Saal der Musikschule. Das Leihklavier "
            "kostet 35 Euro im Monat, Mietkauf ist möglich."
        ),
    },
    {
        "lang": "en",
        "topic": "newsletter campaign",
        "title": "Spring newsletter campaign plan",
        "content": (
            "Spring newsletter campaign for the online shop, planned in the marketing sync on 19 "
            "February. Send date: Tuesday 12 March at 09:00 CET via Klaviyo, to the 48,000 "
            "subscribers who opened an email in the last 90 days. The subject line is A/B tested "
            "on 10 percent of the list for 4 hours: 'New season, new colours' against 'Your spring "
            "edit is here'. Offer: 15 percent off with the code SPRING15 until 24 March, sale "
            "items excluded. Targets: an open rate above 38 percent and 1,100 orders. Copy by "
            "Jess, design by Karim."
        ),
        "paraphrase": (
            "In the marketing sync on 19 February we planned the online shop's spring newsletter. "
            "Klaviyo sends it on Tuesday 12 March, 09:00 CET, to the 48,000 subscribers who have "
            "opened any email within the past 90 days. For 4 hours, 10 percent of the list sees "
            "one of two subject lines, 'Your spring edit is here' or 'New season, new colours', "
            "and the winner goes to everyone else. The code SPRING15 gives 15 percent off until 24 "
            "March, except on sale items. We are aiming for more than 38 percent opens and 1,100 "
            "orders. Jess writes the copy and Karim does the design."
        ),
        "translation": (
            "Frühjahrs-Newsletter-Kampagne für den Onlineshop, geplant im Marketing-Sync am 19. "
            "Februar. Versand: Dienstag, 12. März, um 09:00 Uhr MEZ über Klaviyo an die 48.000 "
            "Abonnenten, die in den letzten 90 Tagen eine E-Mail geöffnet haben. Die Betreffzeile "
            "wird 4 Stunden lang an 10 Prozent der Liste per A/B-Test geprüft: „New season, new "
            "colours“ gegen „Your spring edit is here“. Angebot: 15 Prozent Rabatt mit dem Code "
            "SPRING15 bis zum 24. März, ausgenommen reduzierte Artikel. Ziele: eine Öffnungsrate "
            "über 38 Prozent und 1.100 Bestellungen. Text von Jess, Design von Karim."
        ),
        "changed": (
            "Results of the spring newsletter campaign for the online shop, sent on Tuesday 12 "
            "March at 09:00 CET via Klaviyo to 48,000 subscribers. 'Your spring edit is here' won "
            "the subject line A/B test. The open rate reached 41 percent, above the 38 percent "
            "target, but only 870 orders used the code SPRING15 instead of the 1,100 we aimed for. "
            "Decision from the sync on 26 March: extend SPRING15 until 31 March, still excluding "
            "sale items, and send a reminder on 27 March to everyone who did not open. Copy by "
            "Jess, design by Karim."
        ),
        "sibling": (
            "Instagram plan for the shop: 3 feed posts and 5 stories per week, with Reels every "
            "Thursday at 18:00 when engagement peaks. Product shots are taken in batches on the "
            "first Monday of the month by Karim. The account has 23,500 followers; the goal is "
            "30,000 by the end of the year. Any paid collaboration must be labelled as an ad and "
            "approved by Jess first."
        ),
    },
    {
        "lang": "de",
        "topic": "Partner-API Releases",
        "title": "Release-Prozess für die Partner-API",
        "content": (
            "Release-Prozess für die Partner-API, beschlossen im Architekturboard am 4. März. Neue "
            "Versionen erscheinen einmal pro Quartal, die nächste ist v3.4 am 15. April. Jede "
            "Version wird mindestens 12 Monate unterstützt; abgekündigte Endpunkte bekommen den "
            "Header Sunset mit dem Abschaltdatum. Die OpenAPI-Spezifikation liegt im Repo "
            "partner-api-spec und wird bei jedem Merge auf developer.example.de veröffentlicht. "
            "Breaking Changes gibt es nur in Major-Versionen, angekündigt per Newsletter an die "
            "230 registrierten Partner. Zuständig ist Katharina Vogel."
        ),
        "paraphrase": (
            "Am 4. März hat das Architekturboard festgelegt, wie Releases der Partner-API "
            "ablaufen. Pro Quartal kommt genau eine neue Version heraus, als Nächstes v3.4 am 15. "
            "April. Unterstützt wird jede Version für mindestens 12 Monate, und wird ein Endpunkt "
            "abgekündigt, nennt der Sunset-Header das Datum der Abschaltung. Die "
            "OpenAPI-Spezifikation wird im Repo partner-api-spec gepflegt; nach jedem Merge "
            "erscheint sie automatisch auf developer.example.de. Inkompatible Änderungen sind "
            "Major-Versionen vorbehalten, und die 230 registrierten Partner erfahren davon über "
            "den Newsletter. Verantwortlich ist Katharina Vogel."
        ),
        "translation": (
            "Release process for the partner API, decided by the architecture board on 4 March. "
            "New versions come out once a quarter; the next one is v3.4 on 15 April. Every version "
            "is supported for at least 12 months, and deprecated endpoints get the Sunset header "
            "with the shutdown date. The OpenAPI specification lives in the partner-api-spec repo "
            "and is published to developer.example.de on every merge. Breaking changes happen only "
            "in major versions and are announced by newsletter to the 230 registered partners. "
            "Katharina Vogel is responsible."
        ),
        "changed": (
            "Release-Prozess für die Partner-API, beschlossen im Architekturboard am 4. März. Neue "
            "Versionen erscheinen einmal pro Quartal, die nächste ist v3.4 am 29. April. Jede "
            "Version wird mindestens 18 Monate unterstützt; abgekündigte Endpunkte bekommen den "
            "Header Sunset mit dem Abschaltdatum. Die OpenAPI-Spezifikation liegt im Repo "
            "partner-api-spec und wird bei jedem Merge auf developer.example.de veröffentlicht. "
            "Breaking Changes gibt es nur in Major-Versionen, angekündigt per Newsletter an die "
            "230 registrierten Partner. Zuständig ist Katharina Vogel."
        ),
        "sibling": (
            "Die Sandbox der Partner-API läuft unter sandbox.example.de und enthält nur Testdaten, "
            "die jede Nacht um 2 Uhr zurückgesetzt werden. Das Ratenlimit liegt bei 100 Anfragen "
            "pro Minute, Sandbox-Schlüssel beginnen mit sk_test_. Für Tests stehen die "
            "Kundennummern 9000 bis 9099 bereit. Webhooks aus der Sandbox kommen von der "
            "IP-Adresse 203.0.113.25."
        ),
    },
    {
        "lang": "en",
        "topic": "solar installation",
        "title": "Rooftop solar installation with battery",
        "content": (
            "Solar installation on the house roof, quote accepted on 9 April from SolarWerk Rhein: "
            "24 panels of 430 Wp (10.3 kWp in total) on the south and west roof, a Fronius Symo "
            "GEN24 10.0 inverter and a BYD battery with 10.2 kWh. Price 21,400 EUR with 0 percent "
            "VAT. Expected yield is about 9,800 kWh per year, with self-consumption around 65 "
            "percent thanks to the battery. Installation is scheduled for the week of 17 June, but "
            "the grid operator Westnetz must approve the connection first. The feed-in tariff is "
            "8.03 cents per kWh."
        ),
        "paraphrase": (
            "On 9 April we signed SolarWerk Rhein's quote for the roof. They will mount 24 panels "
            "at 430 Wp each, 10.3 kWp altogether, across the south and west sides, together with a "
            "Fronius Symo GEN24 10.0 inverter and a 10.2 kWh BYD battery. The total is 21,400 EUR, "
            "and no VAT applies (0 percent). We should get roughly 9,800 kWh a year and, because "
            "of the battery, use about 65 percent of it ourselves. Work is planned for the week "
            "starting 17 June, once Westnetz, the grid operator, has approved the connection. "
            "Every kWh fed into the grid earns 8.03 cents."
        ),
        "translation": (
            "Solaranlage auf dem Hausdach, Angebot von SolarWerk Rhein am 9. April angenommen: 24 "
            "Module mit je 430 Wp (insgesamt 10,3 kWp) auf dem Süd- und Westdach, ein "
            "Wechselrichter Fronius Symo GEN24 10.0 und ein BYD-Speicher mit 10,2 kWh. Preis "
            "21.400 EUR bei 0 Prozent Mehrwertsteuer. Erwartet werden etwa 9.800 kWh im Jahr, dank "
            "des Speichers mit einem Eigenverbrauch von rund 65 Prozent. Die Montage ist für die "
            "Woche ab dem 17. Juni geplant, vorher muss der Netzbetreiber Westnetz den Anschluss "
            "genehmigen. Die Einspeisevergütung beträgt 8,03 Cent pro kWh."
        ),
        "changed": (
            "Update on the solar installation from SolarWerk Rhein, 3 June: we dropped the BYD "
            "battery from the order to stay within budget, so the price goes down from 21,400 EUR "
            "to 15,900 EUR. It is still 24 panels of 430 Wp (10.3 kWp in total) on the south and "
            "west roof with the Fronius Symo GEN24 10.0 inverter, which lets us add a battery "
            "later. Without the battery, self-consumption is expected at about 30 percent of the "
            "9,800 kWh per year. Westnetz approved the connection on 28 May, and installation is "
            "confirmed for 18-20 June."
        ),
        "sibling": (
            "Quote for an air-to-water heat pump from Haustechnik Brandt, dated 12 March: Vaillant "
            "aroTHERM plus with 10 kW, 28,600 EUR before subsidies. The KfW grant should cover 50 "
            "percent, so about 14,300 EUR remain. Expected electricity use is around 4,200 kWh a "
            "year for the 160 square metres. The old gas boiler would be removed in October, and "
            "the radiators in two rooms need to be replaced."
        ),
    },
]
