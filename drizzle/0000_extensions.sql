-- drizzle-kit does not write extensions: trigram matching backs catalog search on both backends.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
