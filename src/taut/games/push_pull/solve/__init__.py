"""Exact solutions of Push-Pull.

The duel, solved exactly (every position's value and optimal mixes):

* :mod:`.duel_model`: position classes and their one-turn successor tables;
* :mod:`.duel_positions`: labelled positions (``"2,W,3"``) and their classes;
* :mod:`.duel_solution`: the solution and what the solver did;
* :mod:`.duel_mixes`: optimal mixes at the solved values, their symmetries and product form;
* :mod:`.duel_newton`: the solver (layers by score, Newton's method);
* :mod:`.duel_baselines`: plain value iteration, for checks and the benchmark;
* :mod:`.duel_summary`: the readable report of ``taut solve``;
* :mod:`.duel_policy`: the solved mix of a seat at a game state, by action id.

Two-teams (a two-player zero-sum game on the 5x5 board):

* :mod:`.teams_model`: position classes, one-turn successor tables, the half-turn image;
* :mod:`.teams_solve`: exact values of every position after the first score (shipped in
  ``two_teams_scored.json``);
* :mod:`.teams_opening`: near-exact values of the positions before it
  (``two_teams_opening.json``);
* :mod:`.teams_bounds`: proven bounds on those, at most 0.0025 wide
  (``two_teams_bounds.json``);
* :mod:`.teams_games`: every position as a matrix game over those values (what ``hard``
  plays on);
* :mod:`.teams_summary`: the readable report of ``taut solve --variant two-teams``.

Beyond these:

* :mod:`.random_reply`: what the best reply to uniform random play wins, in every variant;
* :mod:`.exploitability`: what a best response gains against an agent in the duel.
"""
