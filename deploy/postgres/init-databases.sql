-- One database per service that owns tables (DESIGN.md §3: no service reads
-- another's tables, and each runs its own migrations). Runs once, when the
-- postgres volume is first initialised; the owner is POSTGRES_USER.
CREATE DATABASE gateway OWNER scribevault;
CREATE DATABASE discovery OWNER scribevault;
CREATE DATABASE storage OWNER scribevault;
CREATE DATABASE transcription OWNER scribevault;
CREATE DATABASE conversion OWNER scribevault;
CREATE DATABASE library OWNER scribevault;
