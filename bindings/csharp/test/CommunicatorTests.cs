using System;
using System.IO;
using System.Threading;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>Context.SetCommunicator (kmx_context_set_communicator): two ranks as two C# threads, each with its own Context and
    /// its shard of the file (Dataset.LoadShard, collective), train the model one process trains on the whole file, to the bit; a
    /// communicator that throws fails the call with Status.Io and its exception as the InnerException; a rank outside [0, Size)
    /// is refused.</summary>
    [TestFixture]
    public class CommunicatorTests
    {
        Dataset all, small;
        Kernel rbf;

        [TestFixtureSetUp]
        public void Load()
        {
            all = Dataset.Load(TestData.LetterBinTrain);
            small = TestData.Rows(all, 0, 300);
            rbf = new Kernel("kernel=rbf gamma=16");
        }

        [TestFixtureTearDown]
        public void Free()
        {
            rbf.Dispose();
            small.Dispose();
            all.Dispose();
        }

        /// <summary>Ranks as threads of this process (as tests/unit/nystrom_tron/thread_ranks.h): a reduction puts a rank's values in
        /// its slot, waits for every rank, combines the slots in rank order (so every rank gets the same bits) and waits again before
        /// a slot is reused. A wait longer than 60 s throws, so a broken exchange fails the test instead of hanging it.</summary>
        sealed class ThreadRanks
        {
            internal readonly int Size;
            internal int Sums;
            /// <summary>Calls made on a thread other than the one training.</summary>
            internal int ForeignCalls;
            readonly double[][] slots;
            byte[] bytes;
            readonly object gate = new object();
            int arrived;
            long generation;

            internal ThreadRanks(int size)
            {
                Size = size;
                slots = new double[size][];
            }

            /// <summary>Waits for every rank, at most 60 s (then throws, so a broken exchange fails instead of hanging).</summary>
            void Await()
            {
                lock (gate)
                {
                    long current = generation;
                    if (++arrived == Size)
                    {
                        arrived = 0;
                        ++generation;
                        Monitor.PulseAll(gate);
                    }
                    while (generation == current)
                        if (!Monitor.Wait(gate, TimeSpan.FromSeconds(60)) && generation == current)
                            throw new TimeoutException("a rank did not arrive");
                }
            }

            void Reduce(int rank, double[] values, Func<double, double, double> combine)
            {
                slots[rank] = (double[])values.Clone();
                Await();
                for (int i = 0; i < values.Length; ++i)
                {
                    double v = slots[0][i];
                    for (int r = 1; r < Size; ++r) v = combine(v, slots[r][i]);
                    values[i] = v;
                }
                Await();
            }

            /// <summary>Rank r's communicator, for the thread owner that trains with it.</summary>
            internal ICommunicator Rank(int r, Thread owner) => new Member(this, r, owner);

            sealed class Member : ICommunicator
            {
                readonly ThreadRanks group;
                readonly Thread owner;

                internal Member(ThreadRanks group, int rank, Thread owner)
                {
                    this.group = group;
                    Rank = rank;
                    this.owner = owner;
                }

                public int Rank { get; }
                public int Size => group.Size;

                void Check()
                {
                    if (Thread.CurrentThread != owner) Interlocked.Increment(ref group.ForeignCalls);
                }

                public void AllreduceSum(double[] values)
                {
                    Check();
                    if (Rank == 0 && values.Length > 0) Interlocked.Increment(ref group.Sums);
                    group.Reduce(Rank, values, (a, b) => a + b);
                }

                public void AllreduceMax(double[] values)
                {
                    Check();
                    group.Reduce(Rank, values, Math.Max);
                }

                public void Broadcast(byte[] data, int root)
                {
                    Check();
                    if (Rank == root) group.bytes = (byte[])data.Clone();
                    group.Await();
                    if (Rank != root) Array.Copy(group.bytes, data, data.Length);
                    group.Await();
                }
            }
        }

        /// <summary>One process's decision values at every row of the file, from the model parameters trains.</summary>
        double[] Alone(string parameters, string contextParameters)
        {
            using (var ctx = new Context(contextParameters))
            using (var solver = new Solver(parameters))
            using (Model model = solver.Train(ctx, rbf, all))
                return model.DecisionValues(null, all);
        }

        /// <summary>Each of two thread-ranks loads its shard of the file and trains with parameters; returns each rank's model's
        /// decision values at every row.</summary>
        double[][] OnTwoRanks(string parameters, string contextParameters, ThreadRanks ranks)
        {
            var values = new double[2][];
            var rows = new long[2];
            var failures = new Exception[2];
            var threads = new Thread[2];
            for (int r = 0; r < 2; ++r)
            {
                int rank = r;
                threads[r] = new Thread(() =>
                {
                    try
                    {
                        using (var ctx = new Context(contextParameters))
                        {
                            ctx.SetCommunicator(ranks.Rank(rank, Thread.CurrentThread));
                            // The context alone holds the communicator and its delegates. (GC.WaitForPendingFinalizers()
                            // here, while the other rank waited in a communicator call, stalled Mono 6.8 under NUnit for
                            // 20-60 s; a collection alone does not.)
                            GC.Collect();
                            using (var shard = Dataset.LoadShard(ctx, TestData.LetterBinTrain, FileFormat.Auto, rank, 2))
                            using (var solver = new Solver(parameters))
                            using (Model model = solver.Train(ctx, rbf, shard))
                            {
                                rows[rank] = shard.Rows;
                                values[rank] = model.DecisionValues(null, all);
                            }
                        }
                    }
                    catch (Exception e)
                    {
                        failures[rank] = e;
                    }
                });
            }
            foreach (Thread t in threads) t.Start();
            foreach (Thread t in threads) t.Join();
            foreach (Exception failure in failures)
                if (failure != null) Assert.Fail("a rank failed: " + failure);
            Assert.IsTrue(rows[0] > 0 && rows[1] > 0);
            Assert.AreEqual(all.Rows, rows[0] + rows[1]);
            return values;
        }

        void AssertRanksGiveTheOneProcessModel(string parameters, string aloneParameters)
        {
            const string contextParameters = "threads=2 seed=3";
            double[] expected = Alone(aloneParameters, contextParameters);
            var ranks = new ThreadRanks(2);
            foreach (double[] rank in OnTwoRanks(parameters, contextParameters, ranks))
                CollectionAssert.AreEqual(expected, rank); // the same bits
            Assert.Greater(ranks.Sums, 0);
            Assert.AreEqual(0, ranks.ForeignCalls);
        }

        [Test]
        public void TwoRanksTrainTheOneProcessNystromTronModel()
        {
            const string parameters = "method=nystrom_tron centers=100 stages=2 C=1";
            AssertRanksGiveTheOneProcessModel(parameters, parameters);
        }

        [Test]
        public void TwoRanksTrainTheOneProcessFalkonModel()
        {
            const string parameters = "method=falkon lambda=1e-6 centers=100 iterations=10 center_method=uniform";
            AssertRanksGiveTheOneProcessModel(parameters, parameters + " reproducible=1");
        }

        /// <summary>Rank 0 of size ranks whose sum and maximum throw thrown; its broadcast keeps this rank's bytes.</summary>
        sealed class Failing : ICommunicator
        {
            readonly Exception thrown;

            internal Failing(int size, Exception thrown)
            {
                Size = size;
                this.thrown = thrown;
            }

            public int Rank => 0;
            public int Size { get; }
            public void AllreduceSum(double[] values) => throw thrown;
            public void AllreduceMax(double[] values) => throw thrown;
            public void Broadcast(byte[] bytes, int root) { }
        }

        [Test]
        public void WhatTheCommunicatorThrowsFailsTheCallWithIo()
        {
            var thrown = new IOException("the network is down");
            using (var ctx = new Context())
            using (var solver = new Solver("method=nystrom_tron centers=20"))
            {
                ctx.SetCommunicator(new Failing(2, thrown));
                var e = Assert.Throws<KmxException>(() => solver.Train(ctx, rbf, small).Dispose());
                Assert.AreEqual(Status.Io, e.Status);
                StringAssert.Contains("communication between ranks failed", e.NativeMessage);
                Assert.AreSame(thrown, e.InnerException);
                // The same context, alone again, trains the model a fresh context trains.
                ctx.SetCommunicator(null);
                using (Model model = solver.Train(ctx, rbf, small))
                using (Model fresh = solver.Train(null, rbf, small))
                    CollectionAssert.AreEqual(fresh.DecisionValues(null, small), model.DecisionValues(null, small));
                // The next failure carries its own exception; a failure of another kind none.
                ctx.SetCommunicator(new Failing(2, new InvalidOperationException("again")));
                e = Assert.Throws<KmxException>(() => Dataset.LoadShard(ctx, TestData.LetterBinTrain, FileFormat.Auto, 0, 2).Dispose());
                Assert.AreEqual(Status.Io, e.Status);
                Assert.AreEqual("again", e.InnerException.Message);
                ctx.SetCommunicator(null);
                e = Assert.Throws<KmxException>(() => Dataset.LoadShard(ctx, TestData.LetterBinTrain, FileFormat.Auto, 2, 2).Dispose());
                Assert.AreEqual(Status.InvalidArgument, e.Status);
                Assert.IsNull(e.InnerException);
            }
        }

        [Test]
        public void OneRankIsThisProcessAlone()
        {
            using (var ctx = new Context())
            using (var solver = new Solver("method=nystrom_tron centers=20"))
            using (Model fresh = solver.Train(null, rbf, small))
            {
                ctx.SetCommunicator(new Failing(1, new InvalidOperationException("kmx calls no function of one rank")));
                using (Model model = solver.Train(ctx, rbf, small))
                    CollectionAssert.AreEqual(fresh.DecisionValues(null, small), model.DecisionValues(null, small));
            }
        }

        /// <summary>A communicator of the given rank and size that does nothing.</summary>
        sealed class Idle : ICommunicator
        {
            internal Idle(int rank, int size)
            {
                Rank = rank;
                Size = size;
            }

            public int Rank { get; }
            public int Size { get; }
            public void AllreduceSum(double[] values) { }
            public void AllreduceMax(double[] values) { }
            public void Broadcast(byte[] bytes, int root) { }
        }

        [Test]
        public void ARankOutsideTheRanksIsRefused()
        {
            using (var ctx = new Context())
            using (var solver = new Solver("method=nystrom_tron centers=20"))
            {
                foreach (int[] bad in new[] { new[] { 2, 2 }, new[] { -1, 2 }, new[] { 0, 0 } })
                {
                    var e = Assert.Throws<KmxException>(() => ctx.SetCommunicator(new Idle(bad[0], bad[1])));
                    Assert.AreEqual(Status.InvalidArgument, e.Status);
                    StringAssert.Contains("rank must be in [0, size)", e.NativeMessage);
                }
                // The context keeps what it had: this process alone.
                using (Model model = solver.Train(ctx, rbf, small))
                    Assert.AreEqual(20, model.SupportVectors);
            }
        }
    }
}
