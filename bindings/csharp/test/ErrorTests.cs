using System;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>Every misuse raises an exception carrying the C status and message; the process lives on.</summary>
    [TestFixture]
    public class ErrorTests
    {
        [Test]
        public void NegativeGammaIsAnInvalidArgument()
        {
            using (var kernel = new Kernel(KernelType.Rbf))
            {
                var e = Assert.Throws<KmxException>(() => kernel.SetParam(Param.Gamma, -1));
                Assert.AreEqual(Status.InvalidArgument, e.Status);
                Assert.AreEqual("KMX_E_INVALID_ARGUMENT", e.StatusName);
                Assert.AreEqual(1, e.Code);
                StringAssert.Contains("gamma", e.NativeMessage);
                StringAssert.Contains(e.NativeMessage, e.Message);
            }
            Assert.Throws<KmxException>(() => new Kernel("kernel=rbf gamma=-1"));
        }

        [Test]
        public void NaNInTheDataIsRejected()
        {
            var e = Assert.Throws<KmxException>(() => new Dataset(new[] { 1.0, double.NaN, 3, 4 }, 2));
            Assert.AreEqual(Status.InvalidArgument, e.Status);
            StringAssert.Contains("NaN", e.NativeMessage);
            using (var kernel = new Kernel(KernelType.Rbf))
                Assert.Throws<KmxException>(() => kernel.Eval(new[] { double.NaN }, new[] { 1.0 }));
        }

        [Test]
        public void DisposedHandlesPassNullToC()
        {
            var kernel = new Kernel(KernelType.Rbf);
            kernel.Dispose();
            Assert.IsTrue(kernel.IsDisposed);
            var e = Assert.Throws<KmxException>(() => kernel.GetParam(Param.Gamma));
            Assert.AreEqual(Status.InvalidArgument, e.Status);
            StringAssert.Contains("NULL", e.NativeMessage);
            kernel.Dispose();

            var ctx = new Context();
            ctx.Dispose();
            StringAssert.Contains("NULL", Assert.Throws<KmxException>(() => ctx.SetParam(Param.Seed, 1)).NativeMessage);
            Assert.Throws<KmxException>(() => ctx.SetProgressCallback((f, p) => false));
            Assert.Throws<ObjectDisposedException>(() => Dataset.Parse(ctx, "1 1:1\n", FileFormat.Auto, "t"));

            var data = new Dataset(new double[] { 1, 2 }, 1);
            data.Dispose();
            StringAssert.Contains("NULL", Assert.Throws<KmxException>(() => { long n = data.Rows; }).NativeMessage);
            using (var live = new Kernel(KernelType.Linear))
                Assert.Throws<KmxException>(() => live.BlockRows(null, data, 0, 1, data, 0, 1));
        }

        [Test]
        public void WrongSizedArraysAreCaught()
        {
            using (var data = new Dataset(TestData.Values(12, 4), 3))
            using (var kernel = new Kernel(KernelType.Rbf))
            {
                // C takes a length: it checks it.
                var tooSmall = Assert.Throws<KmxException>(() => data.GetRows(0, 4, new double[5]));
                Assert.AreEqual(Status.InvalidArgument, tooSmall.Status);
                Assert.Throws<KmxException>(() => data.SetWeights(new double[] { 1, 2 }));
                Assert.Throws<KmxException>(() => kernel.Block(null, TestData.Values(6, 5), TestData.Values(6, 6), 3, new double[3]));
                // C takes no length: the binding checks.
                var ragged = Assert.Throws<ArgumentException>(() => kernel.Block(null, new double[7], new double[6], 3));
                StringAssert.Contains("not a multiple of 3", ragged.Message);
                Assert.Throws<ArgumentException>(() => kernel.Eval(new double[3], new double[2]));
                Assert.Throws<ArgumentException>(() => new Dataset(new double[6], 3, new double[3]));
                Assert.Throws<ArgumentException>(() => KMeans.Assign(null, data, new double[4]));
            }
        }

        [Test]
        public void BadRequestsToKMeansRaise()
        {
            using (var data = new Dataset(TestData.Values(8, 7), 2))
            {
                Assert.AreEqual(Status.InvalidArgument, Assert.Throws<KmxException>(() => KMeans.Fit(null, data, 5)).Status);
                Assert.Throws<KmxException>(() => KMeans.Fit(null, data, 2, "max_iter=0"));
            }
        }

        [Test]
        public void MissingFileIsAnIoError()
        {
            var e = Assert.Throws<KmxException>(() => Dataset.Load("/nonexistent/kmx.libsvm"));
            Assert.AreEqual(Status.Io, e.Status);
            StringAssert.Contains("/nonexistent/kmx.libsvm", e.NativeMessage);
        }
    }
}
