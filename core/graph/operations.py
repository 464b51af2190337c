"""The graph operations, each declared once (``ctx.core.operations``): a block's neighbourhood,
the topic map, the daily digest, and Dream's figures, links to review, cycle and pace. Only models
are imported here; the services are named."""

from __future__ import annotations

from ctx.core.graph.schemas import (
    DailyDigest,
    DailyRequest,
    DreamRunRequest,
    EgoRequest,
    EgoResponse,
    LinkReview,
    LinkReviewInput,
    LinksRequest,
    OverviewRequest,
    OverviewResponse,
    ThrottleRequest,
    TopicMap,
)
from ctx.core.operations import Operation, Rest

SERVICE = "ctx.core.graph.service"
BY_ID = {
    404: "No such block (or setting, type, key) in the key's scopes.",
    409: "Ambiguous id prefix, or the change collides with an existing block.",
}
NO_LINK = {404: "No such link whose both ends the key can read."}

GRAPH_EGO = Operation(
    name="graph.ego",
    summary="A block's neighbourhood along live links (titles only).",
    description="The block's neighbourhood along live links: nodes (titles only) and edges, both "
    "ends of each in the key's read scopes.",
    service=f"{SERVICE}:neighbourhood",
    input=EgoRequest,
    output=EgoResponse,
    rest=Rest("GET", "/api/graph/ego", errors=BY_ID),
)

GRAPH_OVERVIEW = Operation(
    name="graph.overview",
    summary="The topic map: clusters of linked blocks and the links between them.",
    description="The topic map: clusters of linked blocks in the key's read scopes (ids numbered "
    "per answer, largest first), their top titles and the links between clusters.",
    service=f"{SERVICE}:clusters",
    input=OverviewRequest,
    output=OverviewResponse,
    rest=Rest("GET", "/api/graph/overview"),
)

TOPIC_DIGEST = Operation(
    name="graph.digest",
    summary="The topic map's clusters with titles and sizes, and block counts per category.",
    service=f"{SERVICE}:topics",
    output=TopicMap,
    rest=Rest("GET", "/api/digest", tags=("graph",)),
    cli=True,
)

DAILY_DIGEST = Operation(
    name="graph.daily-digest",
    summary="Summarise one day's writes of the key's home scope into the block 'Digest "
    "YYYY-MM-DD'.",
    description="Summarise the blocks written on ``date`` (default today, UTC) in the key's home "
    "scope through the digest role, and store it as the block ``Digest YYYY-MM-DD`` (a re-run "
    "updates it). ``skipped`` says why nothing was written.",
    service=f"{SERVICE}:write_daily_digest",
    input=DailyRequest,
    output=DailyDigest,
    kind=("write", "model"),
    reach="home",
    rest=Rest(
        "POST", "/api/synthesize/daily", optional_body=True, exclude_unset=True, tags=("graph",)
    ),
    cli=True,
)

DREAM_STATS = Operation(
    name="graph.dream-stats",
    summary="Links by type and status in the key's scopes; for admins the queue and the pace.",
    service=f"{SERVICE}:dream_figures",
    rest=Rest("GET", "/api/dream/stats", tags=("dream",)),
    cli=True,
)

DREAM_LINKS = Operation(
    name="graph.dream-links",
    summary="Links whose both ends the key can read, newest first (titles only).",
    service=f"{SERVICE}:links",
    input=LinksRequest,
    rest=Rest("GET", "/api/dream/links", tags=("dream",)),
    cli=True,
)

REVIEW_DREAM_LINK = Operation(
    name="graph.review-link",
    summary="Confirm a link, or delete it (kept as rejected, so Dream does not make it again).",
    service=f"{SERVICE}:review",
    input=LinkReviewInput,
    kind="write",
    rest=Rest(
        "POST", "/api/dream/links/{link_id}", body=LinkReview, errors=NO_LINK, tags=("dream",)
    ),
    cli=True,
)

RUN_DREAM = Operation(
    name="graph.dream-run",
    summary="Run one Dream cycle now and answer what it did.",
    description="Run one cycle now on the next due block of a scope the key reads (or the given "
    "block, when it is due) and return what it did (``nothing due`` when no block is).",
    service=f"{SERVICE}:dream_now",
    input=DreamRunRequest,
    kind=("write", "model"),
    access="admin",
    rest=Rest("POST", "/api/dream/run", tags=("dream",)),
    cli=True,
)

DREAM_THROTTLE = Operation(
    name="graph.dream-throttle",
    summary="Set Dream's pace: on, throttled (a pause after each model call) or off.",
    service=f"{SERVICE}:set_throttle",
    input=ThrottleRequest,
    kind="write",
    access="admin",
    reach="none",
    rest=Rest("POST", "/api/dream/throttle", tags=("dream",)),
    cli=True,
)
