"""The club relay (host side): MQTT → SQLite archive, rules check, live page, exports.

store.py     the SQLite archive: each (board, game, ply) once, in order; flags for the TD
checker.py   every move through the firmware's rules core (ingrules.game.Game)
service.py   the relay itself: MQTT messages in, acks out, events to the page
web.py       the read-only live page and its server-sent events (delay, resume)
exports.py   SGF per game, round results for the EGD and the AGA
broker.py    starts Debian's mosquitto on loopback with the committed config (mosquitto/)
fleet.py     simulated boards (the firmware's relay_link + a paho client), load and bench
"""
