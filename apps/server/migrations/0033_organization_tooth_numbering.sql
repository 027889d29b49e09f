-- The tooth numbering an organization gives its new users; NULL: the one read where it works (Universal in the
-- United States and Canada, FDI elsewhere).
ALTER TABLE organizations
  ADD COLUMN default_tooth_numbering text CHECK (default_tooth_numbering IN ('fdi', 'universal'));
