"""The club relay (host side): MQTT → SQLite archive, rules check, live page, exports.

store.py     the SQLite archive: each (board, game, ply) once, in order; flags for the TD
checker.py   every move through the firmware's rules core (ingrules.game.Game)
service.py   the relay itself: MQTT messages in, acks out, events to the page
web.py       the read-only live page and its server-sent events (delay, resume)
exports.py   SGF per game, round results for the EGD and the AGA
broker.py    starts Debian's mosquitto on loopback with the committed config (mosquitto/)
fleet.py     simulated boards (the firmware's relay_link + a paho client), load and bench

The tournament director's desk (docs/relay-director.md):
pairings.py      a round's pairings from a CSV; the players, tables, byes of an import
opengotha.py     OpenGotha's tournament file (XML) in and out
director.py      the desk: tables bound to boards, pairings to the boards, results waiting
                 for confirmation, corrections with their reason, alerts
desk_import.py   what an import changes (players merged, rounds replaced, the round played)
desk_store.py    the desk's tables in the same SQLite archive
alerts.py        each alert kind's title and what the referee does
standings.py     wins and tie-breaks (OpenGotha's criteria, or NBW, SOS, SOSOS)
round_view.py    one round as the hall sees it (previous round's boards, two boards)
desk_exports.py  results out: OpenGotha XML, EGD, AGA, a round's SGFs as one zip
desk_web.py      the desk's HTTP requests; auth.py the director's credentials
"""
