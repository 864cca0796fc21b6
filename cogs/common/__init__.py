"""What every cog shares: the actor, transformers, autocomplete, replies and embed formatting."""
