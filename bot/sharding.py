"""Which Discord shards this process runs: `--shards 0-3 --shard-count 8`, or the same as settings."""

from __future__ import annotations

from dataclasses import dataclass

# Discord asks for a shard per 1,000 to 2,500 servers; this bounds typos, not real bots.
MAX_SHARD_COUNT = 4096


class ShardError(ValueError):
    """The shard settings cannot describe a valid set of shards."""


@dataclass(frozen=True)
class ShardPlan:
    """The shards this process runs, out of how many the bot has in all."""

    ids: tuple[int, ...]
    count: int

    @property
    def everything(self) -> bool:
        """Return whether this process runs every shard (so no other process is needed)."""
        return len(self.ids) == self.count

    def __str__(self) -> str:
        return f"shards {describe(self.ids)} of {self.count}"


def describe(ids: tuple[int, ...]) -> str:
    """Write shard ids back in the short form: `0-3,6`."""
    parts: list[str] = []
    start = prev = ids[0]
    for shard in [*ids[1:], None]:
        if shard is not None and shard == prev + 1:
            prev = shard
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if shard is not None:
            start = prev = shard
    return ",".join(parts)


def parse_ids(text: str) -> tuple[int, ...]:
    """Parse `0-3`, `4,5,7` or `0-1,6` into sorted shard ids."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ShardError(
                f"`{text}` is not a list of shards; write a range like `0-3`, ids like `4,5,7`, or both: `0-1,6`."
            )
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ShardError(f"the shard range `{part}` runs backwards; write it low to high, like `{last}-{first}`.")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def plan(ids_text: str | None, count_text: str | None) -> ShardPlan | None:
    """Check the shard settings; None means one plain, unsharded connection (the default)."""
    ids_text = (ids_text or "").strip() or None
    count_text = (count_text or "").strip() or None
    if ids_text is None and count_text is None:
        return None
    if count_text is None:
        raise ShardError(
            "the shards were given without how many there are in all; add --shard-count (or BATTLEPOST_SHARD_COUNT), "
            "e.g. --shards 0-3 --shard-count 8."
        )
    if not count_text.isdigit() or not 1 <= int(count_text) <= MAX_SHARD_COUNT:
        raise ShardError(f"the shard count must be a whole number from 1 to {MAX_SHARD_COUNT}, not `{count_text}`.")
    count = int(count_text)
    ids = parse_ids(ids_text) if ids_text is not None else tuple(range(count))
    outside = [shard for shard in ids if shard >= count]
    if outside:
        raise ShardError(
            f"shard {outside[0]} does not exist when there are {count} shards: they are numbered 0 to {count - 1}."
        )
    return ShardPlan(ids=ids, count=count)
