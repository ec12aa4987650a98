-- Option values are searchable words of their product (decision 0043, step 3): the search columns of products that already have options are rebuilt as refreshSearchColumns now writes them.
WITH RECURSIVE tree AS (
  SELECT id, name::text AS path FROM categories WHERE parent_id IS NULL
  UNION ALL
  SELECT c.id, tree.path || ' ' || c.name FROM categories c JOIN tree ON c.parent_id = tree.id
)
UPDATE products p SET
  search_vector =
    setweight(to_tsvector('english', p.name), 'A') ||
    setweight(to_tsvector('english', p.brand), 'B') ||
    setweight(to_tsvector('english', tree.path || ' ' || coalesce((SELECT string_agg(v, ' ') FROM jsonb_array_elements(p.options) o, jsonb_array_elements_text(o->'values') v), '')), 'C') ||
    setweight(to_tsvector('english', left(p.description, 2000)), 'D'),
  search_text = lower(p.name || ' ' || p.brand || ' ' || tree.path || ' ' || coalesce((SELECT string_agg(v, ' ') FROM jsonb_array_elements(p.options) o, jsonb_array_elements_text(o->'values') v), ''))
FROM tree
WHERE p.category_id = tree.id AND p.options <> '[]'::jsonb;
