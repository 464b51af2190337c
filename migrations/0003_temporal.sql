-- Temporal dimensions: one row per block, content time and dimension (an EAV table, so a new
-- dimension needs no schema change). Partial indexes per dimension keep look-ups O(log n).

CREATE TABLE context_temporal (
    block_id     uuid    NOT NULL REFERENCES context_blocks (id) ON DELETE CASCADE,
    source_date  date    NOT NULL,
    source       text    NOT NULL DEFAULT 'content' CHECK (source IN ('own', 'content')),
    dimension    text    NOT NULL,
    value        real    NOT NULL,
    PRIMARY KEY (block_id, source_date, dimension)
);
CREATE INDEX context_temporal_date ON context_temporal (source_date);
CREATE INDEX context_temporal_weekday ON context_temporal (value) WHERE dimension = 'weekday';
CREATE INDEX context_temporal_month ON context_temporal (value) WHERE dimension = 'month';
CREATE INDEX context_temporal_quarter ON context_temporal (value) WHERE dimension = 'quarter';
CREATE INDEX context_temporal_week ON context_temporal (value) WHERE dimension = 'week';
CREATE INDEX context_temporal_monthday ON context_temporal (value) WHERE dimension = 'monthday';
CREATE INDEX context_temporal_seasonal ON context_temporal (value) WHERE dimension = 'seasonal';
