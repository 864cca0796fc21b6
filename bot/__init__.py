"""The bot: configuration, startup, the table service, scheduler and the front ends."""
