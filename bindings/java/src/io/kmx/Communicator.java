package io.kmx;

/**
 * The ranks a training call spans ({@link Context#setCommunicator}, kmx_context_set_communicator): several
 * processes (or threads), each with its own Context and its own shard of the rows, that kmx joins with
 * these collective operations, as an MPI communicator does. Nyström-TRON and FALKON training and
 * {@link Dataset#loadShard} use them; every rank must make the same kmx calls with the same parameters,
 * in the same order.
 *
 * <p>kmx calls them on the thread that made the kmx call, with copies of its buffers (the arrays are
 * valid during the call only). Anything one throws (checked exceptions and {@code Error}s too) fails
 * that kmx call with {@link KmxException} (status IO) whose cause is the throwable; nothing crosses
 * into C. A rank whose operation fails leaves the others waiting in theirs: a communicator should
 * fail (or time out) on every rank, as MPI aborts.
 */
public interface Communicator {
    /** This rank, 0 .. size()-1; read once, by {@link Context#setCommunicator}. */
    int rank();

    /** How many ranks take part; read once, by {@link Context#setCommunicator}. With 1, kmx calls nothing. */
    int size();

    /**
     * Replaces values[i] by its sum over the ranks, in place (MPI_Allreduce with MPI_SUM). Every rank must
     * receive the same bits: combine in a fixed order (for instance reduce to one rank, then broadcast).
     */
    void allreduceSum(double[] values) throws Exception;

    /** Replaces values[i] by its maximum over the ranks, in place (MPI_Allreduce with MPI_MAX). */
    void allreduceMax(double[] values) throws Exception;

    /** Copies rank root's bytes to every rank, in place (MPI_Bcast). */
    void broadcast(byte[] bytes, int root) throws Exception;
}
