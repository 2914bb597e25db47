"""How a process knows it is one rank of an MPI job: the variables mpirun/prterun set in each process it starts
(Open MPI, and PMIx-based launchers). Apart from `distributed` so that checking costs no import of it."""

RANK_VARIABLES = ("OMPI_COMM_WORLD_SIZE", "PMIX_RANK")
