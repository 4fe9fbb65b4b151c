using System;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>Kernel parameters, evaluation and blocks, against plain C# loops.</summary>
    [TestFixture]
    public class KernelTests
    {
        const double Tolerance = 1e-12;

        [Test]
        public void ParamsRoundTrip()
        {
            using (var kernel = new Kernel(KernelType.Polynomial))
            {
                Assert.AreEqual((double)KernelType.Polynomial, kernel.GetParam(Param.Kernel));
                kernel.SetParam(Param.Degree, 2);
                kernel.SetParams("gamma=0.25 coef0=1");
                Assert.AreEqual(2.0, kernel.GetParam(Param.Degree));
                Assert.AreEqual(0.25, kernel.GetParam(Param.Gamma));
                Assert.AreEqual(1.0, kernel.GetParam(Param.Coef0));
            }
        }

        [Test]
        public void EvalMatchesTheFormula()
        {
            double[] a = { 1, 2, 3 }, b = { 0.5, -1, 2 };
            using (var rbf = new Kernel("kernel=rbf gamma=0.5"))
            using (var linear = new Kernel(KernelType.Linear))
            {
                Assert.AreEqual(TestData.Rbf(a, 0, b, 0, 3, 0.5), rbf.Eval(a, b), Tolerance);
                Assert.AreEqual(0.5 - 2 + 6, linear.Eval(a, b), Tolerance);
            }
        }

        [Test]
        public void BlockMatchesADoubleLoop()
        {
            const int na = 7, nb = 5, d = 4;
            double[] a = TestData.Values(na * d, 10), b = TestData.Values(nb * d, 11);
            using (var ctx = new Context("threads=2"))
            using (var kernel = new Kernel("gamma=0.3"))
            {
                double[] block = kernel.Block(ctx, a, b, d);
                Assert.AreEqual(na * nb, block.Length);
                for (int i = 0; i < na; ++i)
                    for (int j = 0; j < nb; ++j)
                        Assert.AreEqual(TestData.Rbf(a, i, b, j, d, 0.3), block[i * nb + j], Tolerance);
            }
        }

        [Test]
        public void MatrixBlockEqualsArrayBlock()
        {
            var a = new double[,] { { 1, 0 }, { 0, 1 }, { 1, 1 } };
            var b = new double[,] { { 0.5, 0.5 }, { 2, -1 } };
            using (var kernel = new Kernel("gamma=0.7"))
            {
                CollectionAssert.AreEqual(kernel.Block(null, new double[] { 1, 0, 0, 1, 1, 1 }, new double[] { 0.5, 0.5, 2, -1 }, 2),
                                          kernel.Block(null, a, b));
            }
        }

        [Test]
        public void BlockRowsMatchesBlockOfTheSameRows()
        {
            using (var ctx = new Context())
            using (var data = Dataset.Load(ctx, TestData.LetterTrain))
            using (var kernel = new Kernel("kernel=laplacian gamma=0.1"))
            {
                double[] rows = kernel.BlockRows(ctx, data, 0, 6, data, 10, 13);
                double[] dense = kernel.Block(ctx, data.GetRows(0, 6), data.GetRows(10, 13), data.Cols);
                Assert.AreEqual(18, rows.Length);
                for (int i = 0; i < rows.Length; ++i) Assert.AreEqual(dense[i], rows[i], Tolerance);
            }
        }

        [Test]
        public void BlockWritesIntoTheCallersBuffer()
        {
            double[] a = TestData.Values(6, 12), result = new double[9];
            using (var kernel = new Kernel(KernelType.Linear))
            {
                kernel.Block(null, a, a, 2, result);
                double expected = 0;
                for (int c = 0; c < 2; ++c) expected += a[c] * a[2 + c];
                Assert.AreEqual(expected, result[1], Tolerance);
            }
        }
    }
}
