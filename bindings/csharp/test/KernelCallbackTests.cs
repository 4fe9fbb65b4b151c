using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>The kernel as a C# delegate (new Kernel(KernelFunction), kmx_kernel_create_callback): one computing the Gaussian
    /// by its formula trains the model the built-in rbf kernel trains (the same decision values to 1e-9), on kmx's worker threads
    /// and from several C# threads at once; what it throws becomes a KmxException with its message, and the handles stay usable.</summary>
    [TestFixture]
    public class KernelCallbackTests
    {
        const double Gamma = 16;
        Dataset train, test;
        Kernel rbf;
        Solver solver;

        [TestFixtureSetUp]
        public void SetUp()
        {
            using (var letter = Dataset.Load(TestData.LetterBinTrain))
            {
                train = TestData.Rows(letter, 0, 400);
                test = TestData.Rows(letter, 1000, 1300);
            }
            rbf = new Kernel(KernelType.Rbf);
            rbf.SetParam(Param.Gamma, Gamma);
            solver = new Solver("method=svm C=4 eps=1e-6");
        }

        [TestFixtureTearDown]
        public void TearDown()
        {
            foreach (IDisposable each in new IDisposable[] { solver, rbf, test, train }) each.Dispose();
        }

        /// <summary>exp(-gamma |a_i - b_j|^2) by its formula (TestData.Rbf's plain loop).</summary>
        static void Gaussian(double[] result, double[] a, int na, double[] b, int nb, int d)
        {
            for (int i = 0; i < na; ++i)
                for (int j = 0; j < nb; ++j) result[i * nb + j] = TestData.Rbf(a, i, b, j, d, Gamma);
        }

        static double MaxDifference(double[] expected, double[] actual)
        {
            Assert.AreEqual(expected.Length, actual.Length);
            double most = 0;
            for (int i = 0; i < expected.Length; ++i) most = Math.Max(most, Math.Abs(expected[i] - actual[i]));
            return most;
        }

        static void Collect()
        {
            for (int i = 0; i < 3; ++i)
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }
        }

        double[] RbfDecisionValues()
        {
            using (var model = solver.Train(null, rbf, train)) return model.DecisionValues(null, test);
        }

        [Test]
        public void TheGaussianAsADelegateTrainsTheRbfModel()
        {
            long calls = 0;
            using (var ctx = new Context("threads=1"))
            using (var callback = new Kernel((result, a, na, b, nb, d) =>
                   {
                       Interlocked.Increment(ref calls);
                       Gaussian(result, a, na, b, nb, d);
                   }))
            using (var byRbf = solver.Train(ctx, rbf, train))
            using (var byDelegate = solver.Train(ctx, callback, train))
            {
                Assert.AreEqual((double)KernelType.Callback, callback.GetParam(Param.Kernel));
                Assert.AreEqual((double)KernelType.Callback, byDelegate.Info(ModelInfoKey.InfoKernel));
                Assert.Greater(Interlocked.Read(ref calls), 0);
                double[] expected = byRbf.DecisionValues(ctx, test), actual = byDelegate.DecisionValues(ctx, test);
                Assert.Less(MaxDifference(expected, actual), 1e-9);
                Assert.AreEqual(byRbf.Predict(ctx, test), byDelegate.Predict(ctx, test));
                Assert.AreEqual(byRbf.SupportVectors, byDelegate.SupportVectors);
                Assert.AreEqual(byRbf.Objective, byDelegate.Objective, 1e-9 * Math.Abs(byRbf.Objective));
                // kmx_kernel_block and kmx_kernel_eval call it too.
                double[] a = { 0.1, 0.2, 0.3, -0.4, 1, 0 }, b = { 0.5, 0.5, -0.2, 0.1 };
                double[] block = callback.Block(ctx, a, b, 2);
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 2; ++j)
                    {
                        double formula = TestData.Rbf(a, i, b, j, 2, Gamma);
                        Assert.AreEqual(formula, block[i * 2 + j], 0);
                        Assert.AreEqual(formula, callback.Eval(new[] { a[2 * i], a[2 * i + 1] }, new[] { b[2 * j], b[2 * j + 1] }), 0);
                    }
                // Its model holds a function of this process: not saved.
                Assert.AreEqual(Status.Unsupported, Assert.Throws<KmxException>(() => byDelegate.SaveToBuffer()).Status);
            }
        }

        [Test]
        public void AModelKeepsItsDelegateAliveAfterTheKernelIsDisposedAndCollected()
        {
            Model model;
            using (var callback = new Kernel(Gaussian)) // the delegate made here is referenced by the handles alone
            {
                Collect();
                model = solver.Train(null, callback, train);
            }
            Collect();
            using (model) Assert.Less(MaxDifference(RbfDecisionValues(), model.DecisionValues(null, test)), 1e-9);
        }

        [Test]
        public void WhatTheDelegateThrowsBecomesAKmxExceptionWithItsMessage()
        {
            bool broken = true;
            using (var ctx = new Context("threads=2"))
            using (var callback = new Kernel((result, a, na, b, nb, d) =>
                   {
                       if (Volatile.Read(ref broken)) throw new InvalidOperationException("no kernel today");
                       Gaussian(result, a, na, b, nb, d);
                   }))
            {
                var e = Assert.Throws<KmxException>(() => solver.Train(ctx, callback, train));
                Assert.AreEqual(Status.InvalidArgument, e.Status);
                StringAssert.Contains("kernel callback failed (status 1): System.InvalidOperationException: no kernel today",
                                      e.NativeMessage);
                // From kmx's worker threads too (cross-validation trains its folds on both).
                e = Assert.Throws<KmxException>(() => solver.CrossValidate(ctx, callback, train, 4));
                StringAssert.Contains("System.InvalidOperationException: no kernel today", e.NativeMessage);
                // The same handles train once the delegate works: nothing was left pending.
                Volatile.Write(ref broken, false);
                using (var model = solver.Train(ctx, callback, train))
                    Assert.Less(MaxDifference(RbfDecisionValues(), model.DecisionValues(ctx, test)), 1e-9);
            }
            // A non-finite value is kmx's own check; a null delegate is refused before C.
            using (var nan = new Kernel((result, a, na, b, nb, d) => result[0] = double.NaN))
                StringAssert.Contains("kernel callback gave a non-finite value",
                                      Assert.Throws<KmxException>(() => solver.Train(null, nan, train)).NativeMessage);
            Assert.Throws<ArgumentNullException>(() => new Kernel((KernelFunction)null));
        }

        [Test]
        public void WorkerThreadsCallItAtOnce()
        {
            var callers = new HashSet<int>();
            int inside = 0, most = 0;
            long calls = 0;
            using (var ctx = new Context("threads=2 seed=3"))
            using (var callback = new Kernel((result, a, na, b, nb, d) =>
                   {
                       lock (callers) callers.Add(Thread.CurrentThread.ManagedThreadId);
                       Interlocked.Increment(ref calls);
                       int now = Interlocked.Increment(ref inside);
                       for (int seen = Volatile.Read(ref most); now > seen; seen = Volatile.Read(ref most))
                           if (Interlocked.CompareExchange(ref most, now, seen) == seen) break;
                       try
                       {
                           Gaussian(result, a, na, b, nb, d);
                       }
                       finally
                       {
                           Interlocked.Decrement(ref inside);
                       }
                   }))
            {
                double[] byRbf = solver.CrossValidate(ctx, rbf, train, 4);
                for (int round = 0; round < 3; ++round) Assert.AreEqual(byRbf, solver.CrossValidate(ctx, callback, train, 4));
            }
            // The folds ran on the calling thread and on kmx's worker thread.
            Assert.AreEqual(2, callers.Count);
            Assert.IsTrue(callers.Contains(Thread.CurrentThread.ManagedThreadId));
            Assert.Greater(Interlocked.Read(ref calls), 20);
            Console.WriteLine("callers inside at once: at most " + most);
        }

        [Test]
        public void SeveralCSharpThreadsShareOneCallbackKernel()
        {
            double[] expected = RbfDecisionValues();
            long calls = 0;
            using (var callback = new Kernel((result, a, na, b, nb, d) =>
                   {
                       Interlocked.Increment(ref calls);
                       Gaussian(result, a, na, b, nb, d);
                   }))
            {
                Task<double[]>[] runs = Enumerable.Range(0, 3).Select(t => Task.Run(() =>
                {
                    using (var ctx = new Context("threads=2"))
                    using (var model = solver.Train(ctx, callback, train))
                        return model.DecisionValues(ctx, test);
                })).ToArray();
                foreach (var run in runs) Assert.Less(MaxDifference(expected, run.Result), 1e-9);
            }
            Assert.Greater(Interlocked.Read(ref calls), 0);
        }
    }
}
