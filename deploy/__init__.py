"""Running the app on several servers: a throwaway PostgreSQL, nginx, the lecture set."""
