"""Class sessions: a teacher's class, its students, their answers, stored in a database.

Neither the engine (:mod:`qwk_explained`, which stays free of databases) nor the Streamlit glue
(:mod:`qwk_app`): the app calls this package, and so do the load bench and the tests, without a
Streamlit script around them.

- :mod:`.store` keeps classes, students and submissions through SQLAlchemy: SQLite in a file by
  default, PostgreSQL when the URL says so; one schema, created and migrated here.
- :mod:`.codes` makes and reads what strangers type or carry in links: class codes, keys,
  nicknames.
- :mod:`.classroom` is what a class does: start, join, open and close activities, grade a
  submission with the checker, sum up the class for the teacher, export, expire, delete.
"""
