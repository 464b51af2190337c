"""The graph: links between blocks (Dream's and people's), Dream, the overview map, the digest,
the query stages that read links (supersedes filter, graph expansion), and their operations."""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.graph.digest import (
        DIGEST_JOBS,
        daily_synthesis,
        scope_principal,
        sweep_digests,
        topic_map,
    )
    from ctx.core.graph.dream_counts import dream_stats
    from ctx.core.graph.dream_cycle import PIPELINE_VERSION, CycleResult, run_cycle
    from ctx.core.graph.dream_worker import DreamWorker
    from ctx.core.graph.ego_graph import ego
    from ctx.core.graph.exploring import explore
    from ctx.core.graph.links import (
        LINK_TYPES,
        known_pairs,
        link_rows,
        list_links,
        review_link,
        superseders,
        write_link,
    )
    from ctx.core.graph.map_overview import (
        OVERVIEW_JOBS,
        is_behind,
        overview,
        queue_overview,
        refresh_overview,
        sweep_overview,
    )
    from ctx.core.graph.operations import (
        DAILY_DIGEST,
        DREAM_LINKS,
        DREAM_STATS,
        DREAM_THROTTLE,
        GRAPH_EGO,
        GRAPH_OVERVIEW,
        REVIEW_DREAM_LINK,
        RUN_DREAM,
        TOPIC_DIGEST,
    )
    from ctx.core.graph.schemas import (
        DailyDigest,
        DailyRequest,
        DreamRunRequest,
        EgoRequest,
        EgoResponse,
        LinkReview,
        LinksRequest,
        OverviewRequest,
        OverviewResponse,
        ThrottleRequest,
        TopicMap,
    )

__all__ = [
    "DAILY_DIGEST",
    "DIGEST_JOBS",
    "DREAM_LINKS",
    "DREAM_STATS",
    "DREAM_THROTTLE",
    "GRAPH_EGO",
    "GRAPH_OVERVIEW",
    "LINK_TYPES",
    "OVERVIEW_JOBS",
    "PIPELINE_VERSION",
    "REVIEW_DREAM_LINK",
    "RUN_DREAM",
    "TOPIC_DIGEST",
    "CycleResult",
    "DailyDigest",
    "DailyRequest",
    "DreamRunRequest",
    "DreamWorker",
    "EgoRequest",
    "EgoResponse",
    "LinkReview",
    "LinksRequest",
    "OverviewRequest",
    "OverviewResponse",
    "ThrottleRequest",
    "TopicMap",
    "daily_synthesis",
    "dream_stats",
    "ego",
    "explore",
    "is_behind",
    "known_pairs",
    "link_rows",
    "list_links",
    "overview",
    "queue_overview",
    "refresh_overview",
    "review_link",
    "run_cycle",
    "scope_principal",
    "superseders",
    "sweep_digests",
    "sweep_overview",
    "topic_map",
    "write_link",
]

# Imported on first use (see ctx.core.lazy): a thin client loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
