"""A run: the settings of one (:mod:`.config`, ``RunConfig``), the service every route
goes through to plan the tasks, load and prepare the encoder and call the runner
(:mod:`.service`), and the embed-once runner that evaluates each (dataset, task) and
writes its record (:mod:`.runner`)."""
