"""Combat Action: squads, vehicles and robots spending action points on a d6 skirmish table."""
