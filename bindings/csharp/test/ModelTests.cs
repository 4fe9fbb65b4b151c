using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>SVM and DC-SVM on a binary Letter subset: accuracy, decision values, saving, loading, threads, errors.</summary>
    [TestFixture]
    public class ModelTests
    {
        Dataset train, test;
        Kernel kernel;
        double[] testLabels;
        readonly Dictionary<SolverMethod, Model> models = new Dictionary<SolverMethod, Model>();

        /// <summary>Rows [0,1000) of letter_bin.train for training and [1000,1500) for testing, C=8, gamma=16.</summary>
        [TestFixtureSetUp]
        public void TrainOnce()
        {
            using (var all = Dataset.Load(TestData.LetterBinTrain))
            {
                train = TestData.Rows(all, 0, 1000);
                test = TestData.Rows(all, 1000, 1500);
            }
            testLabels = test.GetLabels();
            kernel = new Kernel("kernel=rbf gamma=16");
            foreach (SolverMethod method in new[] { SolverMethod.Svm, SolverMethod.Dcsvm })
                using (var solver = new Solver(method))
                {
                    solver.SetParam(Param.C, 8);
                    models[method] = solver.Train(null, kernel, train);
                }
        }

        [TestFixtureTearDown]
        public void Free()
        {
            foreach (Model model in models.Values) model.Dispose();
            kernel.Dispose();
            test.Dispose();
            train.Dispose();
        }

        // LIBSVM 3.x (svm-train -c 8 -g 16 on rows [0,1000), svm-predict on rows [1000,1500)) reaches 88.0%
        // with 878 support vectors on this split: 90% is out of reach of the exact SVM, so the bar is 85%.
        [TestCase(SolverMethod.Svm)]
        [TestCase(SolverMethod.Dcsvm)]
        public void AccuracyAbove85Percent(SolverMethod method)
        {
            double accuracy = TestData.Accuracy(models[method].Predict(null, test), testLabels);
            Console.WriteLine("{0}: accuracy {1:P2} on 500 test rows, {2} support vectors", method, accuracy,
                              models[method].SupportVectors);
            Assert.Greater(accuracy, 0.85);
        }

        [Test]
        public void SvmAgreesWithLibsvm()
        {
            Model model = models[SolverMethod.Svm];
            Assert.AreEqual(0.88, TestData.Accuracy(model.Predict(null, test), testLabels), 0.01);
            Assert.That(model.SupportVectors, Is.InRange(870, 886));
        }

        [TestCase(SolverMethod.Svm)]
        [TestCase(SolverMethod.Dcsvm)]
        public void InfoDescribesTheModel(SolverMethod method)
        {
            Model model = models[method];
            Assert.AreEqual(method, model.Method);
            Assert.AreEqual(2, model.Classes);
            Assert.AreEqual(2.0, model.Info(ModelInfoKey.InfoClasses));
            CollectionAssert.AreEqual(new double[] { -1, 1 }, model.ClassLabels());
            Assert.AreEqual(16, model.Columns);
            Assert.AreEqual(1, model.DecisionValuesPerRow);
            Assert.That(model.SupportVectors, Is.InRange(1, 1000));
            Assert.AreEqual((double)model.SupportVectors, model.Info(ModelInfoKey.InfoSupportVectors));
            Assert.IsFalse(double.IsNaN(model.Objective) || double.IsInfinity(model.Objective));
            Assert.AreNotEqual(0.0, model.Objective);
            Assert.That(model.KktViolation, Is.InRange(0.0, 1.0));
            Assert.Greater(model.Iterations, 0);
            Assert.GreaterOrEqual(model.TrainSeconds, 0.0);
            Assert.AreEqual(method == SolverMethod.Svm, model.HasBias); // bias=auto
            Assert.AreEqual(MulticlassMode.Ovo, model.Multiclass);
        }

        [TestCase(SolverMethod.Svm)]
        [TestCase(SolverMethod.Dcsvm)]
        public void DecisionSignsAgreeWithPredictions(SolverMethod method)
        {
            Model model = models[method];
            double[] predicted = model.Predict(null, test);
            double[] values = model.DecisionValues(null, test);
            Assert.AreEqual(500, values.Length);
            for (int i = 0; i < values.Length; ++i)
                if (values[i] != 0) Assert.AreEqual(values[i] > 0 ? 1.0 : -1.0, predicted[i], "row " + i);
            double[,] matrix = model.DecisionValueMatrix(null, test);
            Assert.AreEqual(500, matrix.GetLength(0));
            Assert.AreEqual(1, matrix.GetLength(1));
            for (int i = 0; i < values.Length; ++i) Assert.AreEqual(values[i], matrix[i, 0]);
        }

        [TestCase(SolverMethod.Svm)]
        [TestCase(SolverMethod.Dcsvm)]
        public void SaveAndLoadPredictIdentically(SolverMethod method)
        {
            Model model = models[method];
            string path = Path.Combine(Path.GetTempPath(), $"kmx_cs_{method}_{Guid.NewGuid():N}.kmx");
            try
            {
                model.Save(path);
                using (Model loaded = Model.Load(path))
                {
                    CollectionAssert.AreEqual(model.Predict(null, test), loaded.Predict(null, test));
                    CollectionAssert.AreEqual(model.DecisionValues(null, test), loaded.DecisionValues(null, test));
                    Assert.AreEqual(model.SupportVectors, loaded.SupportVectors);
                    Assert.AreEqual(model.Objective, loaded.Objective);
                    Assert.AreEqual(method, loaded.Method);
                }
                CollectionAssert.AreEqual(File.ReadAllBytes(path), model.SaveToBuffer());
            }
            finally
            {
                File.Delete(path);
            }
        }

        [TestCase(SolverMethod.Svm)]
        [TestCase(SolverMethod.Dcsvm)]
        public void BufferRoundTripPredictsIdentically(SolverMethod method)
        {
            Model model = models[method];
            byte[] buffer = model.SaveToBuffer();
            Assert.Greater(buffer.Length, 0);
            using (Model loaded = Model.LoadFromBuffer(buffer))
            {
                CollectionAssert.AreEqual(model.Predict(null, test), loaded.Predict(null, test));
                CollectionAssert.AreEqual(model.DecisionValues(null, test), loaded.DecisionValues(null, test));
                CollectionAssert.AreEqual(buffer, loaded.SaveToBuffer());
            }
        }

        [Test]
        public void ClassNamesTravelWithTheModel()
        {
            using (Model model = Model.LoadFromBuffer(models[SolverMethod.Svm].SaveToBuffer()))
            {
                CollectionAssert.IsEmpty(model.ClassNames());
                model.SetClassNames("consonant", "vowel \u00e9");
                using (Model loaded = Model.LoadFromBuffer(model.SaveToBuffer()))
                {
                    CollectionAssert.AreEqual(new[] { "consonant", "vowel \u00e9" }, loaded.ClassNames());
                    CollectionAssert.AreEqual(model.Predict(null, test), loaded.Predict(null, test));
                }
                var e = Assert.Throws<KmxException>(() => model.SetClassNames("same", "same"));
                StringAssert.Contains("two classes have the same name", e.Message);
                Assert.Throws<KmxException>(() => model.SetClassNames("only one"));
                Assert.Throws<KmxException>(() => model.SetClassNames("a", "b\nc"));
                CollectionAssert.AreEqual(new[] { "consonant", "vowel \u00e9" }, model.ClassNames());
                model.SetClassNames();
                CollectionAssert.IsEmpty(model.ClassNames());
            }
        }

        [Test]
        public void CorruptedBufferIsAFormatError()
        {
            byte[] buffer = models[SolverMethod.Svm].SaveToBuffer();
            foreach (int position in new[] { buffer.Length / 2, buffer.Length - 1 })
            {
                var corrupted = (byte[])buffer.Clone();
                corrupted[position] ^= 0x40;
                var e = Assert.Throws<KmxException>(() => Model.LoadFromBuffer(corrupted));
                Assert.AreEqual(Status.Format, e.Status, "byte " + position + ": " + e.NativeMessage);
                Assert.AreEqual("KMX_E_FORMAT", e.StatusName);
            }
            var truncated = new byte[buffer.Length / 3];
            Array.Copy(buffer, truncated, truncated.Length);
            Assert.AreEqual(Status.Format, Assert.Throws<KmxException>(() => Model.LoadFromBuffer(truncated)).Status);
            Assert.Throws<ArgumentNullException>(() => Model.LoadFromBuffer(null));
        }

        [Test]
        public void MissingModelFileIsAnIoError()
        {
            var e = Assert.Throws<KmxException>(() => Model.Load("/nonexistent/kmx.model"));
            Assert.AreEqual(Status.Io, e.Status);
            StringAssert.Contains("/nonexistent/kmx.model", e.NativeMessage);
        }

        [Test]
        public void MoreColumnsThanTheModelRaise()
        {
            Model model = models[SolverMethod.Svm];
            using (var wide = new Dataset(TestData.Values(3 * 17, 5), 17))
            {
                var e = Assert.Throws<KmxException>(() => model.Predict(null, wide));
                Assert.AreEqual(Status.InvalidArgument, e.Status);
                Assert.Throws<KmxException>(() => model.DecisionValues(null, wide));
            }
            using (var narrow = new Dataset(TestData.Values(3 * 15, 5), 15)) // dense: every column is named
            {
                var e = Assert.Throws<KmxException>(() => model.Predict(null, narrow));
                Assert.AreEqual(Status.InvalidArgument, e.Status);
                StringAssert.Contains("15 columns but the model was trained on 16", e.Message);
            }
        }

        [Test]
        public void TooSmallDestinationIsCaught()
        {
            Model model = models[SolverMethod.Svm];
            Assert.AreEqual(Status.InvalidArgument, Assert.Throws<KmxException>(() => model.Predict(null, test, new double[499])).Status);
            Assert.Throws<KmxException>(() => model.DecisionValues(null, test, new double[10]));
            var destination = new double[500];
            model.Predict(null, test, destination);
            CollectionAssert.AreEqual(model.Predict(null, test), destination);
        }

        [Test]
        public void DisposedModelPassesNullToC()
        {
            Model model = Model.LoadFromBuffer(models[SolverMethod.Svm].SaveToBuffer());
            model.Dispose();
            Assert.IsTrue(model.IsDisposed);
            var e = Assert.Throws<KmxException>(() => model.Predict(null, test));
            Assert.AreEqual(Status.InvalidArgument, e.Status);
            StringAssert.Contains("is NULL", e.NativeMessage);
            StringAssert.Contains("is NULL", Assert.Throws<KmxException>(() => model.Predict(null, test, new double[500])).NativeMessage);
            StringAssert.Contains("is NULL", Assert.Throws<KmxException>(() => model.SaveToBuffer()).NativeMessage);
            StringAssert.Contains("is NULL", Assert.Throws<KmxException>(() => model.Save("/tmp/never.kmx")).NativeMessage);
            Assert.Throws<KmxException>(() => model.Info(ModelInfoKey.InfoObjective));
            Assert.Throws<KmxException>(() => model.ClassLabels());
            model.Dispose();
        }

        [Test]
        public void PredictFromSeveralThreads()
        {
            Model model = models[SolverMethod.Dcsvm];
            double[] expected = model.Predict(null, test);
            double[] expectedValues = model.DecisionValues(null, test);
            const int threads = 4;
            var failures = new List<string>();
            var workers = new Thread[threads];
            for (int t = 0; t < threads; ++t)
            {
                int index = t;
                workers[t] = new Thread(() =>
                {
                    try
                    {
                        using (Context ctx = index % 2 == 0 ? null : new Context("threads=2"))
                            for (int round = 0; round < 5; ++round)
                            {
                                CollectionAssert.AreEqual(expected, model.Predict(ctx, test));
                                CollectionAssert.AreEqual(expectedValues, model.DecisionValues(ctx, test));
                            }
                    }
                    catch (Exception e)
                    {
                        lock (failures) failures.Add(e.ToString());
                    }
                });
                workers[t].Start();
            }
            foreach (Thread worker in workers) worker.Join();
            CollectionAssert.IsEmpty(failures);
        }

        [Test]
        public void MulticlassShapes()
        {
            using (var all = Dataset.Load(TestData.LetterTrain))
            using (var subset = TestData.Rows(all, 0, 600))
            using (var first = TestData.Rows(all, 600, 610))
            using (var ovo = new Solver("method=svm C=8"))
            using (var ovr = new Solver("method=svm C=8 multiclass=ovr"))
            using (Model a = ovo.Train(null, kernel, subset))
            using (Model b = ovr.Train(null, kernel, subset))
            {
                long c = a.Classes;
                Assert.AreEqual(subset.Classes().Length, c);
                Assert.AreEqual(c * (c - 1) / 2, a.DecisionValuesPerRow);
                Assert.AreEqual(c, b.DecisionValuesPerRow);
                Assert.AreEqual(MulticlassMode.Ovr, b.Multiclass);
                double[,] values = a.DecisionValueMatrix(null, first);
                Assert.AreEqual(10, values.GetLength(0));
                Assert.AreEqual(c * (c - 1) / 2, values.GetLength(1));
                var labels = new HashSet<double>(a.ClassLabels());
                foreach (double label in a.Predict(null, first)) Assert.IsTrue(labels.Contains(label));
                foreach (double label in b.Predict(null, first)) Assert.IsTrue(labels.Contains(label));
            }
        }
    }
}
