"""Who gets which email about their games, and exactly once.

`common` holds what every sender shares: the claim and its give-back, the sweep windows, who is
to move, and the context every email starts from. `turns` sends "your turn" and the reminders
while a turn waits; `digest` the daily list of waiting games; `endings` the final scores and the
news of a turn whose time ran out. The periodic sweeps in `games.tasks` call the finders here.
"""
