using System;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>Creating, loading, parsing and reading datasets.</summary>
    [TestFixture]
    public class DatasetTests
    {
        [Test]
        public void SavedKmxdLoadsBackInEitherPrecision()
        {
            double[] x = { 0.1, 2, 3, 4, 5, 6.5 };
            double[] y = { 1, -1 };
            string path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), $"kmx_cs_{System.Guid.NewGuid():N}.kmxd");
            try
            {
                using (var data = new Dataset(x, 3, y))
                {
                    data.Save(path);
                    using (var back = Dataset.Load(path))
                    {
                        Assert.IsFalse(back.IsFloat32);
                        Assert.AreEqual(x, back.GetRows(0, 2));
                        Assert.AreEqual(y, back.GetLabels());
                    }
                    data.Save(path, DataPrecision.PrecisionFloat32);
                    using (var back = Dataset.Load(path))
                    {
                        Assert.IsTrue(back.IsFloat32);
                        Assert.AreEqual((double)(float)0.1, back.GetRows(0, 1)[0]);
                    }
                    Assert.Throws<KmxException>(() => data.Save("/nonexistent-dir/x.kmxd"));
                }
            }
            finally
            {
                System.IO.File.Delete(path);
            }
        }

        [Test]
        public void ShardsOfATextFilePartitionItsRows()
        {
            string path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), $"kmx_cs_{System.Guid.NewGuid():N}.libsvm");
            System.IO.File.WriteAllText(path, "1 1:1\n-1 1:2\n1 1:3\n-1 1:4\n1 1:5\n");
            try
            {
                var rows = new System.Collections.Generic.List<double>();
                for (long shard = 0; shard < 3; shard++)
                    using (var part = Dataset.LoadShard(null, path, FileFormat.Auto, shard, 3)) rows.AddRange(part.GetRows(0, part.Rows));
                Assert.AreEqual(new double[] { 1, 2, 3, 4, 5 }, rows.ToArray());
                Assert.Throws<KmxException>(() => Dataset.LoadShard(null, path, FileFormat.Auto, 3, 3));
            }
            finally
            {
                System.IO.File.Delete(path);
            }
        }

        [Test]
        public void CreatedFromArraysReadsBack()
        {
            double[] x = TestData.Values(12, 1);
            double[] y = { 1, 2, 1, 3 };
            using (var data = new Dataset(x, 3, y))
            {
                Assert.AreEqual(4, data.Rows);
                Assert.AreEqual(3, data.Cols);
                Assert.AreEqual(12, data.Nnz);
                Assert.IsFalse(data.IsSparse);
                Assert.IsTrue(data.HasLabels);
                Assert.IsFalse(data.HasWeights);
                CollectionAssert.AreEqual(x, data.GetRows(0, 4));
                CollectionAssert.AreEqual(y, data.GetLabels());
            }
        }

        [Test]
        public void CsrArraysMakeASparseDatasetOfTheSameRows()
        {
            long[] rowPtr = { 0, 2, 2, 3 };  // {1, 0, 3}, {0, 0, 0}, {0, 8, 0}
            using (var data = Dataset.FromCsr(rowPtr, new[] { 0, 2, 1 }, new double[] { 1, 3, 8 }, 3, new double[] { 1, -1, 1 }))
            {
                Assert.IsTrue(data.IsSparse);
                Assert.AreEqual(3, data.Nnz);
                CollectionAssert.AreEqual(new double[] { 1, 0, 3, 0, 0, 0, 0, 8, 0 }, data.GetRows(0, 3));
                CollectionAssert.AreEqual(new double[] { 1, -1, 1 }, data.GetLabels());
            }
            var unsorted = Assert.Throws<KmxException>(() => Dataset.FromCsr(rowPtr, new[] { 2, 0, 1 }, new double[] { 1, 3, 8 }, 3));
            StringAssert.Contains("row 0's columns are not increasing", unsorted.Message);
            Assert.Throws<ArgumentException>(() => Dataset.FromCsr(rowPtr, new[] { 0, 2, 1 }, new double[] { 1, 3 }, 3));
        }

        [Test]
        public void CreatedFromMatrixIsRowMajor()
        {
            var x = new double[,] { { 1, 2, 3 }, { 4, 5, 6 } };
            using (var data = new Dataset(x))
            {
                Assert.AreEqual(2, data.Rows);
                Assert.IsFalse(data.HasLabels);
                CollectionAssert.AreEqual(new double[] { 4, 5, 6 }, data.GetRows(1, 2));
            }
        }

        [Test]
        public void CopiesTheCallersArrays()
        {
            double[] x = { 1, 2, 3, 4 };
            using (var data = new Dataset(x, 2))
            {
                x[0] = 100;
                Assert.AreEqual(1.0, data.GetRows(0, 1)[0]);
            }
        }

        [Test]
        public void WeightsAreStored()
        {
            using (var data = new Dataset(TestData.Values(6, 2), 2))
            {
                data.SetWeights(new double[] { 1, 2, 3 });
                Assert.IsTrue(data.HasWeights);
            }
        }

        [Test]
        public void ClassesCountLabels()
        {
            using (var data = new Dataset(TestData.Values(10, 3), 2, new double[] { 2, 1, 2, 5, 2 }))
            {
                LabelCount[] classes = data.Classes();
                Assert.AreEqual(3, classes.Length);
                Assert.AreEqual(1.0, classes[0].Label);
                Assert.AreEqual(1, classes[0].Count);
                Assert.AreEqual(2.0, classes[1].Label);
                Assert.AreEqual(3, classes[1].Count);
                Assert.AreEqual(5.0, classes[2].Label);
            }
        }

        [Test]
        public void ParsesSparseTextAndMakesItDense()
        {
            string text = "1 1:0.5 40:2\n-1 3:1\n";
            using (var data = Dataset.Parse(null, text, FileFormat.Libsvm, "inline"))
            using (var dense = data.ToDense(null))
            {
                Assert.AreEqual(2, data.Rows);
                Assert.AreEqual(40, data.Cols);
                Assert.That(data.Nnz, Is.EqualTo(3).Or.EqualTo(80));
                Assert.IsFalse(dense.IsSparse);
                Assert.AreEqual(80, dense.Nnz);
                double[] row0 = dense.GetRows(0, 1);
                Assert.AreEqual(0.5, row0[0]);
                Assert.AreEqual(2.0, row0[39]);
                CollectionAssert.AreEqual(new double[] { 1, -1 }, dense.GetLabels());
            }
        }

        [Test]
        public void LoadsLetter()
        {
            using (var ctx = new Context())
            using (var data = Dataset.Load(ctx, TestData.LetterTrain))
            {
                Assert.AreEqual(12000, data.Rows);
                Assert.AreEqual(16, data.Cols);
                Assert.AreEqual(26, data.Classes().Length);
            }
        }

        [Test]
        public void ParseErrorsNameTheLine()
        {
            var e = Assert.Throws<KmxException>(() => Dataset.Parse(null, "1 1:0.5\n2 x:y\n", FileFormat.Auto, "broken.txt"));
            Assert.AreEqual(Status.Format, e.Status);
            StringAssert.Contains("broken.txt", e.NativeMessage);
        }
    }
}
