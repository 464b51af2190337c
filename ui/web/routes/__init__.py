"""The workbench's routers, one per resource."""

from ctx.ui.web.routes import (
    admin,
    ask,
    auth,
    blocks,
    chat,
    dashboard,
    evaluation,
    graph,
    review,
    tenant,
)

ROUTERS = (
    auth.router,
    dashboard.router,
    blocks.router,
    ask.router,
    chat.router,
    graph.router,
    review.router,
    evaluation.router,
    admin.router,
    tenant.router,
)
