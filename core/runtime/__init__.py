"""The runtime: plugin host, database, migrations, settings, job queue, worker, listener, logging.

Everything a ctx process needs before any capability does its work. Other capabilities import
from here (``from ctx.core.runtime import enqueue, Setting``), never from the modules behind it.
"""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.runtime.async_bridge import AsyncBridge
    from ctx.core.runtime.cluster_watch import ClusterWatch
    from ctx.core.runtime.db import Database, default_home, ensure_database, redact, retried
    from ctx.core.runtime.doctor import diagnose
    from ctx.core.runtime.hooks import SETTINGS as RUNTIME_SETTINGS
    from ctx.core.runtime.jobs import (
        Job,
        JobHandler,
        JobOutcome,
        claim,
        claim_for_scopes,
        claim_matching,
        counts,
        done_totals,
        drain,
        enqueue,
        fail,
        finish,
        job_handlers,
        pending_for_scopes,
        requeue,
        run_batch,
        run_kind,
        running_for_scopes,
    )
    from ctx.core.runtime.lease import Lease, owner_gone
    from ctx.core.runtime.listener import Listener
    from ctx.core.runtime.logs import JsonLogFormatter, configure_logging
    from ctx.core.runtime.migrate import apply_migrations, migration_status
    from ctx.core.runtime.notices import LISTENING, listen_notices
    from ctx.core.runtime.operations import (
        EVENT_STREAM,
        HEALTH,
        LIST_PLUGINS,
        LIST_SETTINGS,
        SERVER_VERSION,
        SET_SETTING,
        SHOW_SETTING,
        UNSET_SETTING,
    )
    from ctx.core.runtime.pg_sizing import size_embedded
    from ctx.core.runtime.plugin_host import (
        CORE_PLUGINS,
        DEFAULT_PLUGINS,
        PluginHost,
        PluginInfo,
        Registration,
        registered_factories,
        registered_objects,
        unique_by_name,
    )
    from ctx.core.runtime.replicas import Reads, ReplicaSet, read_urls
    from ctx.core.runtime.schemas import SettingChange, SettingKey, SettingValue
    from ctx.core.runtime.service import plugin_rows, setting_row
    from ctx.core.runtime.setting_writes import set_setting, unset_setting
    from ctx.core.runtime.settings import (
        Registry,
        Setting,
        SettingCheck,
        Settings,
        secret_reference,
    )
    from ctx.core.runtime.transfer import (
        OUTCOMES,
        RESERVED,
        UUID_PATTERN,
        TransferLine,
        TransferRecord,
        TransferSection,
        iso_times,
        noted,
        outcome_of,
        skipped,
    )
    from ctx.core.runtime.versions import installed_version
    from ctx.core.runtime.worker import Worker

__all__ = [
    "CORE_PLUGINS",
    "DEFAULT_PLUGINS",
    "EVENT_STREAM",
    "HEALTH",
    "LISTENING",
    "LIST_PLUGINS",
    "LIST_SETTINGS",
    "OUTCOMES",
    "RESERVED",
    "RUNTIME_SETTINGS",
    "SERVER_VERSION",
    "SET_SETTING",
    "SHOW_SETTING",
    "UNSET_SETTING",
    "UUID_PATTERN",
    "AsyncBridge",
    "ClusterWatch",
    "Database",
    "Job",
    "JobHandler",
    "JobOutcome",
    "JsonLogFormatter",
    "Lease",
    "Listener",
    "PluginHost",
    "PluginInfo",
    "Reads",
    "Registration",
    "Registry",
    "ReplicaSet",
    "Setting",
    "SettingChange",
    "SettingCheck",
    "SettingKey",
    "SettingValue",
    "Settings",
    "TransferLine",
    "TransferRecord",
    "TransferSection",
    "Worker",
    "apply_migrations",
    "claim",
    "claim_for_scopes",
    "claim_matching",
    "configure_logging",
    "counts",
    "default_home",
    "diagnose",
    "done_totals",
    "drain",
    "enqueue",
    "ensure_database",
    "fail",
    "finish",
    "installed_version",
    "iso_times",
    "job_handlers",
    "listen_notices",
    "migration_status",
    "noted",
    "outcome_of",
    "owner_gone",
    "pending_for_scopes",
    "plugin_rows",
    "read_urls",
    "redact",
    "registered_factories",
    "registered_objects",
    "requeue",
    "retried",
    "run_batch",
    "run_kind",
    "running_for_scopes",
    "secret_reference",
    "set_setting",
    "setting_row",
    "size_embedded",
    "skipped",
    "unique_by_name",
    "unset_setting",
]

# Imported on first use (see ctx.core.lazy): a `ctx` command loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
