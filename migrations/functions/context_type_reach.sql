-- Where the blocks of each type are seen, and with what factor: the one place in SQL that reads
-- context_block_types.retrieval_policy. Its Python twin is ctx.core.blocks.types.TYPE_REACH
-- (BlockTypeSpec.sees, .effective_factor), for code that decides in Python;
-- tests/core/blocks/test_type_reach.py fails when the two differ or when the policy is read
-- anywhere else.
--
-- One row per type. Each context column says where a block of the type is seen:
--   'all'       wherever the request's other filters let it in;
--   'category'  only where the request names the block's category (a governed thread's records
--               reach only its own desk); a context that names no category never sees it;
--   'none'      never.
-- The contexts:
--   query    the fused query (ctx_rrf, every channel) and the factor rescore keeps
--   listing  listings, facets and the light search (ctx.core.blocks: browse, list, search)
--   graph    neighbours the graph stage pulls into a query along links (ctx.core.graph.stages)
--   digest   the daily digest's sources and the scopes its sweep finds due
--   vectors  the sequence members the context vectors blend (ctx.core.embed.context) and the
--            neighbours stage pairs (ctx.core.retrieval.neighbours)
-- factor: what a query multiplies the block's fused score by (ctx_rrf, rescore, graph stage):
-- the type's retrieval_factor when damped, 0 when excluded (never seen), else 1.
--
--   policy     query     listing   graph     digest  vectors  factor
--   normal     all       all       all       all     all      1
--   damped     all       all       all       all     all      retrieval_factor
--   excluded   none      all       none      none    none     0
--   private    category  category  category  all     all      1
--
-- A view (no function call per row): a query that joins it reads the CASEs inline, and ctx_rrf
-- reads its arrays once per call. The file name sorts before ctx_rrf.sql, so an upgrade creates
-- the view before the function that reads it. Dropped and created again, so a column may change;
-- a view built on this one stops the drop (there is none: add to this file instead).

DROP VIEW IF EXISTS context_type_reach;

CREATE VIEW context_type_reach AS
SELECT t.name,
       CASE t.retrieval_policy WHEN 'excluded' THEN 'none' WHEN 'private' THEN 'category'
            ELSE 'all' END AS query,
       CASE t.retrieval_policy WHEN 'private' THEN 'category' ELSE 'all' END AS listing,
       CASE t.retrieval_policy WHEN 'excluded' THEN 'none' WHEN 'private' THEN 'category'
            ELSE 'all' END AS graph,
       CASE t.retrieval_policy WHEN 'excluded' THEN 'none' ELSE 'all' END AS digest,
       CASE t.retrieval_policy WHEN 'excluded' THEN 'none' ELSE 'all' END AS vectors,
       (CASE t.retrieval_policy WHEN 'damped' THEN t.retrieval_factor WHEN 'excluded' THEN 0
             ELSE 1 END)::real AS factor
  FROM context_block_types t;
