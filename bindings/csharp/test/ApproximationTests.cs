using System;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>Kernel approximations (Nystrom, k-means Nystrom, MEKA) on 500 Letter rows, against the exact kernel matrix
    /// from Kernel.BlockRows and their own solve identity.</summary>
    [TestFixture]
    public class ApproximationTests
    {
        const int N = 500;
        Context ctx;
        Kernel kernel;
        Dataset data;
        double[] gram, v;

        [TestFixtureSetUp]
        public void Load()
        {
            ctx = new Context("threads=2 seed=3");
            kernel = new Kernel("kernel=rbf gamma=0.5");
            using (var letter = Dataset.Load(TestData.LetterTrain)) data = TestData.Rows(letter, 0, N);
            gram = kernel.BlockRows(ctx, data, 0, N, data, 0, N);
            v = new double[N];
            for (int i = 0; i < N; ++i) v[i] = (i % 7) - 3;
        }

        [TestFixtureTearDown]
        public void Free()
        {
            data.Dispose();
            kernel.Dispose();
            ctx.Dispose();
        }

        double[] ExactMatvec(double[] x)
        {
            var result = new double[N];
            for (int i = 0; i < N; ++i)
                for (int j = 0; j < N; ++j) result[i] += gram[i * N + j] * x[j];
            return result;
        }

        static double RelativeGap(double[] expected, double[] actual)
        {
            double diff = 0, norm = 0;
            for (int i = 0; i < expected.Length; ++i)
            {
                diff += (expected[i] - actual[i]) * (expected[i] - actual[i]);
                norm += expected[i] * expected[i];
            }
            return Math.Sqrt(diff / norm);
        }

        [Test]
        public void MekaApproximatesTheKernelMatrix()
        {
            using (var meka = new Approximation(ctx, kernel, data, "approx=meka rank=16 clusters=4"))
            {
                Assert.AreEqual(N, meka.Rows);
                Assert.That(meka.Rank, Is.InRange(17, 64)); // at most c * k columns of W
                Assert.That(meka.MemoryBytes, Is.InRange(1, 8L * N * N));
                double error = meka.RelativeError(ctx, data, N);
                // The exact error from the Gram matrix, G~ column by column.
                double diff = 0, norm = 0;
                var unit = new double[N];
                for (int j = 0; j < N; ++j)
                {
                    unit[j] = 1;
                    double[] column = meka.Matvec(null, unit);
                    unit[j] = 0;
                    for (int i = 0; i < N; ++i)
                    {
                        double g = gram[i * N + j];
                        diff += (g - column[i]) * (g - column[i]);
                        norm += g * g;
                    }
                }
                Console.WriteLine("meka: rank {0}, {1} bytes, relative error {2:G4}", meka.Rank, meka.MemoryBytes, error);
                Assert.AreEqual(Math.Sqrt(diff / norm), error, 1e-9);
                Assert.Less(error, 0.5);
                Assert.Less(RelativeGap(ExactMatvec(v), meka.Matvec(ctx, v)), 0.5);
            }
        }

        [TestCase("approx=meka rank=16 clusters=4")]
        [TestCase("approx=nystrom centers=60")]
        [TestCase("approx=kmeans_nystrom centers=40 rank=20")]
        public void SolveInvertsTheRegularisedApproximation(string parameters)
        {
            using (var approx = new Approximation(ctx, kernel, data, parameters))
                foreach (double lambda in new[] { 1e-2, 1.0 })
                {
                    double[] x = approx.Solve(ctx, lambda, v);
                    double[] back = approx.Matvec(ctx, x);
                    for (int i = 0; i < N; ++i) back[i] += lambda * x[i];
                    Assert.Less(RelativeGap(v, back), 1e-8);
                }
        }

        [Test]
        public void NystromRanks()
        {
            using (var full = new Approximation(null, kernel, data, "approx=nystrom centers=" + N))
            {
                Assert.That(full.Rank, Is.InRange(N * 9 / 10, N)); // numerically singular directions dropped
                Assert.Less(full.RelativeError(null, data, N), 1e-6);
                Assert.Less(RelativeGap(ExactMatvec(v), full.Matvec(null, v)), 1e-6);
            }
            using (var kmeans = new Approximation(null, kernel, data, "approx=" + (int)ApproxMethod.ApproxKmeansNystrom + " centers=30"))
                Assert.That(kmeans.Rank, Is.InRange(1, 30));
        }

        [Test]
        public void OutlivesItsInputs()
        {
            Approximation approx;
            double[] expected;
            using (var own = new Context("seed=5"))
            using (var gamma = new Kernel("gamma=0.5"))
            using (var copy = TestData.Rows(data, 0, N))
            {
                approx = new Approximation(own, gamma, copy, "approx=meka rank=8 clusters=2");
                expected = approx.Matvec(own, v);
            }
            GC.Collect();
            GC.WaitForPendingFinalizers();
            using (approx) CollectionAssert.AreEqual(expected, approx.Matvec(null, v));
        }

        [Test]
        public void BadInputsRaiseWithStatus()
        {
            using (var approx = new Approximation(null, kernel, data, "approx=nystrom centers=50"))
            {
                Assert.AreEqual(Status.InvalidArgument, Assert.Throws<KmxException>(() => approx.Matvec(null, new double[N - 1])).Status);
                Assert.AreEqual(Status.InvalidArgument, Assert.Throws<KmxException>(() => approx.Matvec(null, null)).Status);
                var e = Assert.Throws<KmxException>(() => approx.Solve(null, 0, v));
                Assert.AreEqual(Status.InvalidArgument, e.Status);
                StringAssert.Contains("lambda", e.NativeMessage);
                using (var other = TestData.Rows(data, 0, 100))
                    Assert.AreEqual(Status.InvalidArgument, Assert.Throws<KmxException>(() => approx.RelativeError(null, other, 10)).Status);
                Assert.Throws<KmxException>(() => approx.RelativeError(null, data, 0));
            }
            foreach (string bad in new[] { "approx=sketchy", "rank=-1", "threshold=-1", "oversampling=99", "gamma=1" })
                Assert.AreEqual(Status.InvalidArgument,
                                Assert.Throws<KmxException>(() => new Approximation(null, kernel, data, bad)).Status, bad);
            var closed = new Approximation(null, kernel, data, "centers=20");
            closed.Dispose();
            closed.Dispose();
            var error = Assert.Throws<KmxException>(() => { long unused = closed.Rows; });
            StringAssert.Contains("approx is NULL", error.NativeMessage);
            Assert.Throws<KmxException>(() => { long unused = closed.Rank; });
            Assert.Throws<KmxException>(() => { long unused = closed.MemoryBytes; });
        }
    }
}
