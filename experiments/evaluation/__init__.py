"""Evaluation against people and partners: the Cultural Codes loader, eval-human, tournaments, cross-play."""
