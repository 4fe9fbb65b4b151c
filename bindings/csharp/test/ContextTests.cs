using System;
using System.Collections.Generic;
using System.Threading;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>Context parameters, callbacks and cancellation.</summary>
    [TestFixture]
    public class ContextTests
    {
        [Test]
        public void ParamsRoundTrip()
        {
            using (var ctx = new Context("threads=2 seed=7"))
            {
                Assert.AreEqual(2.0, ctx.GetParam(Param.Threads));
                Assert.AreEqual(7.0, ctx.GetParam(Param.Seed));
                ctx.SetParam(Param.Seed, 11);
                Assert.AreEqual(11.0, ctx.GetParam(Param.Seed));
            }
        }

        [Test]
        public void BadParamsChangeNothing()
        {
            using (var ctx = new Context("seed=3"))
            {
                Assert.Throws<KmxException>(() => ctx.SetParams("seed=5 threads=2000"));
                Assert.AreEqual(3.0, ctx.GetParam(Param.Seed));
            }
        }

        [Test]
        public void PeakBytesReportsTheLastCall()
        {
            using (var ctx = new Context())
            using (var data = Dataset.Load(ctx, TestData.LetterTrain))
            {
                KMeans.Fit(ctx, data, 5, "max_iter=2");
                Assert.Greater(ctx.PeakBytes, 0);
            }
        }

        [Test]
        public void LogCallbackReceivesMessages()
        {
            var messages = new List<string>();
            using (var ctx = new Context("log_level=debug"))
            using (var data = Dataset.Load(TestData.LetterTrain))
            {
                ctx.SetLogCallback((level, message) => messages.Add(level + ": " + message));
                KMeans.Fit(ctx, data, 3, "max_iter=3");
                ctx.SetLogCallback(null);
                int seen = messages.Count;
                KMeans.Fit(ctx, data, 3, "max_iter=3");
                Assert.AreEqual(seen, messages.Count);
            }
            Assert.IsNotEmpty(messages);
            StringAssert.Contains("k-means", messages[messages.Count - 1]);
            StringAssert.StartsWith("Debug", messages[0]);
        }

        [Test]
        public void ProgressCallbackSeesFractionsAndCanCancel()
        {
            var fractions = new List<double>();
            using (var ctx = new Context())
            using (var data = Dataset.Load(TestData.LetterTrain))
            {
                ctx.SetProgressCallback((fraction, phase) => { fractions.Add(fraction); return false; });
                KMeans.Fit(ctx, data, 4, "max_iter=5");
                Assert.IsNotEmpty(fractions);
                Assert.That(fractions, Is.All.InRange(0.0, 1.0));

                ctx.SetProgressCallback((fraction, phase) => true);
                var e = Assert.Throws<KmxException>(() => KMeans.Fit(ctx, data, 4, "max_iter=5"));
                Assert.AreEqual(Status.Cancelled, e.Status);
                StringAssert.Contains("k-means", e.NativeMessage);
                ctx.SetProgressCallback(null);
                KMeans.Fit(ctx, data, 4, "max_iter=5");
            }
        }

        [Test]
        public void ExceptionInProgressCallbackCancelsAndIsKept()
        {
            using (var ctx = new Context())
            using (var data = Dataset.Load(TestData.LetterTrain))
            {
                ctx.SetProgressCallback((fraction, phase) => { throw new InvalidOperationException("from the callback"); });
                var e = Assert.Throws<KmxException>(() => KMeans.Fit(ctx, data, 4, "max_iter=5"));
                Assert.AreEqual(Status.Cancelled, e.Status);
                Assert.IsInstanceOf<InvalidOperationException>(e.InnerException);
            }
        }

        [Test]
        public void ExceptionInLogCallbackIsRethrownAfterTheCall()
        {
            using (var ctx = new Context("log_level=debug"))
            using (var data = Dataset.Load(TestData.LetterTrain))
            {
                ctx.SetLogCallback((level, message) => { throw new InvalidOperationException("from the log"); });
                var e = Assert.Throws<InvalidOperationException>(() => KMeans.Fit(ctx, data, 3, "max_iter=3"));
                Assert.AreEqual("from the log", e.Message);
                ctx.SetLogCallback(null);
                KMeans.Fit(ctx, data, 3, "max_iter=3");
            }
        }

        [Test]
        public void CancelFromAnotherThreadStopsTheCall()
        {
            using (var ctx = new Context())
            using (var data = Dataset.Load(TestData.LetterTrain))
            {
                var running = new ManualResetEventSlim();
                var cancelled = new ManualResetEventSlim();
                ctx.SetProgressCallback((fraction, phase) => { running.Set(); cancelled.Wait(10000); return false; });
                var canceller = new Thread(() => { running.Wait(); ctx.Cancel(); cancelled.Set(); });
                canceller.Start();
                var e = Assert.Throws<KmxException>(() => KMeans.Fit(ctx, data, 26, "max_iter=100000 tol=0"));
                canceller.Join();
                Assert.AreEqual(Status.Cancelled, e.Status);
                StringAssert.Contains("kmx_context_cancel", e.NativeMessage);
            }
        }

        [Test]
        public void CallbacksSurviveGarbageCollection()
        {
            int calls = 0;
            using (var ctx = new Context())
            using (var data = Dataset.Load(TestData.LetterTrain))
            {
                ctx.SetProgressCallback((fraction, phase) => { ++calls; return false; });
                for (int i = 0; i < 3; ++i)
                {
                    GC.Collect();
                    GC.WaitForPendingFinalizers();
                    KMeans.Fit(ctx, data, 3, "max_iter=3");
                }
            }
            Assert.Greater(calls, 3);
        }
    }
}
