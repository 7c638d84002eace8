"""Fair-play review (RULES R35): scores ranked games for play a person alone could not produce
and holds the suspicious ones for staff.

- `fairplay.signals`: the pure scoring (engine + solver, no Django): timing, identical logs,
  clairvoyance, scouting, and the verdict. `bench/fairplay.py` measures it on simulated players.
- the rest is the Django app: when games are reviewed, what a hold does, the staff's queue.
"""
