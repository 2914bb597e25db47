"""What every tt dialect shares: the table-built op base, the op table, property kinds, text syntax helpers, type
sizes, and the canonicalization machinery."""
