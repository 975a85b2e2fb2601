"""`ingboard bringup`: the finished board checked part by part, wiring faults named.

| module | what |
|---|---|
| `plan.py` | the steps: which points get a stone, which key, which load (pure) |
| `grid_wiring.py` | grid readings -> levels, what each input reads, banks, groups' power (pure) |
| `select_lines.py` | the eight select lines' wiring inferred from what each input reads (pure) |
| `grid_sensors.py` | what the lines leave over: single sensors, mux-channel swaps, stones (pure) |
| `findings.py` | a finding: code, the part to check, what to do |
| `parts.py` | bowls, displays, keys and supply readings -> findings (pure) |
| `diagnosis.py` | all readings -> the findings, one per fault, each naming what to check |
| `walk.py` | the walk itself over a bench: prompts, commands, the readings collected |
| `bench.py` | a real board over USB (prompts or an answers file) or the twin (acting itself) |
| `pole.py` | the single-point pole tester: black / white / weak / reversed |
"""
