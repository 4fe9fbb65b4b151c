using System;
using System.Runtime.InteropServices;

namespace Kmx
{
    /// <summary>The ranks a training call spans (<see cref="Context.SetCommunicator"/>, kmx_context_set_communicator): several
    /// processes (or threads), each with its own Context and its own shard of the rows, that kmx joins with these collective
    /// operations, as an MPI communicator does.</summary>
    /// <remarks>Nyström-TRON and FALKON training and <see cref="Dataset.LoadShard"/> use them; every rank must make the same kmx
    /// calls with the same parameters, in the same order. kmx calls them on the thread that made the kmx call, with copies of its
    /// buffers (valid during the call only). An exception one throws fails that kmx call with KmxException (Status.Io) whose
    /// InnerException it is; no exception crosses into C. A rank whose operation fails leaves the others waiting in theirs: a
    /// communicator should fail (or time out) on every rank, as MPI aborts.</remarks>
    public interface ICommunicator
    {
        /// <summary>This rank, 0 .. Size-1; read once, by Context.SetCommunicator.</summary>
        int Rank { get; }

        /// <summary>How many ranks take part; read once, by Context.SetCommunicator. With 1, kmx calls nothing.</summary>
        int Size { get; }

        /// <summary>Replaces values[i] by its sum over the ranks, in place (MPI_Allreduce with MPI_SUM). Every rank must receive the
        /// same bits: combine in a fixed order (for instance reduce to one rank, then broadcast).</summary>
        void AllreduceSum(double[] values);

        /// <summary>Replaces values[i] by its maximum over the ranks, in place (MPI_Allreduce with MPI_MAX).</summary>
        void AllreduceMax(double[] values);

        /// <summary>Copies rank root's bytes to every rank, in place (MPI_Bcast).</summary>
        void Broadcast(byte[] bytes, int root);
    }

    /// <summary>The C table kmx_context_set_communicator copies (kmx_communicator), marshalled as a pointer to it (null: NULL), whose
    /// functions run an ICommunicator; the ContextHandle holds it, and so its delegates, while C may call them.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal sealed class NativeCommunicator
    {
        internal readonly int Rank;
        internal readonly int Size;
        internal readonly IntPtr User = IntPtr.Zero;
        internal readonly NativeReduceCallback AllreduceSum;
        internal readonly NativeReduceCallback AllreduceMax;
        internal readonly NativeBroadcastCallback Broadcast;

        /// <summary>Reads communicator's Rank and Size, and makes the trampolines to its operations.</summary>
        internal NativeCommunicator(ICommunicator communicator)
        {
            Rank = communicator.Rank;
            Size = communicator.Size;
            AllreduceSum = (user, values, count) => Callbacks.RunReduce(communicator.AllreduceSum, values, count);
            AllreduceMax = (user, values, count) => Callbacks.RunReduce(communicator.AllreduceMax, values, count);
            Broadcast = (user, bytes, count, root) => Callbacks.RunBroadcast(communicator, bytes, count, root);
        }
    }
}
