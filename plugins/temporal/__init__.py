"""Built-in temporal languages: English and German word tables for the rule parser."""
