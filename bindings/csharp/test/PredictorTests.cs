using System;
using System.IO;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>Compact DC-Pred++ predictors from a DC-SVM model on Letter binary rows [0,1000) (tested on [1000,1500)) and from
    /// a FALKON regression model: agreement with the model, info, blobs, files, lifetimes and errors.</summary>
    [TestFixture]
    public class PredictorTests
    {
        const string Params = "leaves=4 landmarks=16 pseudo=32";
        const string SolverParams = "method=dcsvm C=8 levels=2 clusters_per_level=4 sample_size=300";
        Context ctx;
        Kernel kernel;
        Dataset train, test;
        Model model;
        Predictor predictor;

        [TestFixtureSetUp]
        public void Build()
        {
            ctx = new Context("threads=2 seed=42");
            kernel = new Kernel("kernel=rbf gamma=16");
            using (var all = Dataset.Load(TestData.LetterBinTrain))
            {
                train = TestData.Rows(all, 0, 1000);
                test = TestData.Rows(all, 1000, 1500);
            }
            using (var solver = new Solver(SolverParams))
                model = solver.Train(ctx, kernel, train);
            predictor = Predictor.Build(ctx, model, train, Params);
        }

        [TestFixtureTearDown]
        public void Free()
        {
            predictor.Dispose();
            model.Dispose();
            test.Dispose();
            train.Dispose();
            kernel.Dispose();
            ctx.Dispose();
        }

        [Test]
        public void PredictsLikeTheModel()
        {
            double[] labels = test.GetLabels();
            double[] fromModel = model.Predict(ctx, test);
            double[] predicted = predictor.Predict(ctx, test);
            double accuracy = TestData.Accuracy(predicted, labels);
            Console.WriteLine("predictor: accuracy {0:P2} (model {1:P2}), {2} bytes", accuracy,
                              TestData.Accuracy(fromModel, labels), predictor.Bytes);
            // Measured: model 89.4%, predictor 68.4% (16 landmarks per leaf on these 1000 rows with gamma = 16).
            Assert.GreaterOrEqual(accuracy, 0.6);
            Assert.GreaterOrEqual(TestData.Accuracy(predicted, fromModel), 0.6);
            double[] values = predictor.DecisionValues(null, test);
            Assert.AreEqual(predicted.Length, values.Length);
            for (int i = 0; i < values.Length; ++i)
                if (values[i] != 0) Assert.AreEqual(values[i] > 0 ? 1.0 : -1.0, predicted[i], "row " + i);
        }

        /// <summary>The search on 300 of the rows, to 3000 bytes (below the 5 KB of that model's own int4 form, so a compact
        /// predictor is chosen): about 2 s, where 1000 rows to 8000 bytes took about a minute.</summary>
        [Test]
        public void AByteBudgetGivesTheBestPredictorWithinIt()
        {
            Assert.IsNaN(predictor.ValidationAccuracy);
            Assert.IsFalse(predictor.IsValidationInSample);
            using (var rows = TestData.Rows(train, 0, 300))
            using (var solver = new Solver(SolverParams))
            using (var fewer = solver.Train(ctx, kernel, rows))
            using (var small = Predictor.Build(ctx, fewer, rows, "max_bytes=3000"))
            {
                Assert.LessOrEqual(small.Bytes, 3000);
                Assert.That(small.ValidationAccuracy, Is.InRange(0.5, 1.0));
                Assert.Greater(small.ValidationMicroseconds, 0);
                Assert.GreaterOrEqual(small.LandmarksPerLeaf, 1);
                Assert.GreaterOrEqual(small.Candidates, 1);
                Assert.IsFalse(small.IsValidationInSample); // a compact predictor, scored on held-out rows
            }
            var impossible = Assert.Throws<KmxException>(() => Predictor.Build(ctx, model, train, "max_bytes=100"));
            Assert.AreEqual(Status.InvalidArgument, impossible.Status);
        }

        [Test]
        public void InfoDescribesThePredictor()
        {
            Assert.AreEqual(4, predictor.Leaves);
            Assert.That(predictor.Landmarks, Is.InRange(1, 4 * 16));
            Assert.That(predictor.PseudoLandmarks, Is.InRange(0, 4 * 32));
            Assert.AreEqual(16, predictor.Columns);
            Assert.AreEqual(2, predictor.Classes);
            Assert.IsFalse(predictor.IsRegression);
            Assert.AreEqual(1, predictor.DecisionValuesPerRow);
            Assert.IsFalse(predictor.IsFloat32);
            Assert.Greater(predictor.ArenaBytes, 0);
            Assert.AreEqual(predictor.ToBytes().Length, predictor.Bytes);
            Assert.AreEqual((double)predictor.Bytes, predictor.Info(PredictorInfoKey.PredictorBytes));
            Assert.AreEqual(1.0, predictor.Info(PredictorInfoKey.PredictorOutputs));
            Assert.Less(predictor.Bytes, model.SaveToBuffer().Length);
        }

        [Test]
        public void Float32HalvesTheBlob()
        {
            using (var small = Predictor.Build(ctx, model, train, Params + " float32=1"))
            {
                Assert.IsTrue(small.IsFloat32);
                Assert.Less(small.Bytes, predictor.Bytes);
                Assert.Greater(TestData.Accuracy(small.Predict(null, test), predictor.Predict(null, test)), 0.98);
            }
        }

        [Test]
        public void QuantizedStorageShrinksTheBlobAndKeepsTheLabels()
        {
            Assert.AreEqual(StorageType.StorageFloat64, predictor.Storage);
            long previous = predictor.Bytes;
            foreach (var storage in new[] { StorageType.StorageFloat32, StorageType.StorageInt16, StorageType.StorageInt8 })
            {
                string name = Param.Storage.ValueName((int)storage);
                using (var small = Predictor.Build(ctx, model, train, Params + " storage=" + name))
                {
                    Assert.AreEqual(storage, small.Storage);
                    Assert.IsTrue(small.IsFloat32);
                    Assert.Less(small.Bytes, previous);
                    previous = small.Bytes;
                    Assert.Greater(TestData.Accuracy(small.Predict(null, test), predictor.Predict(null, test)), 0.98);
                }
            }
        }

        [Test]
        public void BlobsAndFilesRoundTrip()
        {
            byte[] blob = predictor.ToBytes();
            string path = Path.Combine(Path.GetTempPath(), $"kmx_cs_predictor_{Guid.NewGuid():N}.kmxp");
            try
            {
                predictor.Save(path);
                CollectionAssert.AreEqual(blob, File.ReadAllBytes(path));
                double[] expected = predictor.Predict(null, test);
                double[] expectedValues = predictor.DecisionValues(null, test);
                using (var loaded = Predictor.Load(path))
                using (var fromBytes = Predictor.FromBytes(blob))
                    foreach (var copy in new[] { loaded, fromBytes })
                    {
                        CollectionAssert.AreEqual(expected, copy.Predict(ctx, test));
                        CollectionAssert.AreEqual(expectedValues, copy.DecisionValues(null, test));
                        CollectionAssert.AreEqual(blob, copy.ToBytes());
                    }
            }
            finally
            {
                File.Delete(path);
            }
        }

        [Test]
        public void ExportsACHeader()
        {
            string header = Path.Combine(Path.GetTempPath(), $"kmx_cs_predictor_{Guid.NewGuid():N}.h");
            try
            {
                predictor.ExportC(header, "letter_predictor");
                string text = File.ReadAllText(header);
                StringAssert.Contains("static const unsigned char letter_predictor[" + predictor.Bytes + "]", text);
                StringAssert.Contains("#define LETTER_PREDICTOR_LEN " + predictor.Bytes, text);
                var e = Assert.Throws<KmxException>(() => predictor.ExportC(header, "1 bad name"));
                Assert.AreEqual(Status.InvalidArgument, e.Status);
                StringAssert.Contains("C identifier", e.NativeMessage);
            }
            finally
            {
                File.Delete(header);
            }
        }

        [Test]
        public void OutlivesItsModel()
        {
            Predictor kept;
            double[] expected;
            using (var own = new Context("seed=42"))
            using (var copy = TestData.Rows(train, 0, 1000))
            using (var solver = new Solver("method=svm C=8"))
            using (var svm = solver.Train(own, kernel, copy))
            {
                kept = Predictor.Build(own, svm, copy, "leaves=2 landmarks=8");
                expected = kept.Predict(own, test);
            }
            GC.Collect();
            GC.WaitForPendingFinalizers();
            using (kept) CollectionAssert.AreEqual(expected, kept.Predict(null, test));
        }

        [Test]
        public void RegressionPredictor()
        {
            int n = 300, d = 2;
            var x = new double[n * d];
            var y = new double[n];
            for (int i = 0; i < n; ++i)
            {
                x[i * d] = (i % 20) / 20.0;
                x[i * d + 1] = (i / 20) / 15.0;
                y[i] = Math.Sin(3 * x[i * d]) + x[i * d + 1] * x[i * d + 1] + 0.25;
            }
            using (var data = new Dataset(x, d, y))
            using (var gamma = new Kernel("gamma=2"))
            using (var solver = new Solver("method=falkon lambda=1e-6 centers=60 iterations=40"))
            using (var falkon = solver.Train(ctx, gamma, data))
            using (var compact = Predictor.Build(ctx, falkon, data, null))
            {
                Assert.IsTrue(compact.IsRegression);
                Assert.AreEqual(1, compact.DecisionValuesPerRow);
                double[] expected = falkon.Predict(null, data);
                double[] predicted = compact.Predict(null, data);
                for (int i = 0; i < n; ++i) Assert.AreEqual(expected[i], predicted[i], 1e-6, "row " + i);
                CollectionAssert.AreEqual(predicted, compact.DecisionValues(null, data));
            }
        }

        [Test]
        public void BadInputsRaiseWithStatus()
        {
            foreach (string bad in new[] { "leaves=-1", "landmarks=-3", "float32=2", "nonsense=1", "storage=int2", "float32=1 storage=int8" })
                Assert.AreEqual(Status.InvalidArgument,
                                Assert.Throws<KmxException>(() => Predictor.Build(null, model, train, bad)).Status, bad);
            byte[] blob = predictor.ToBytes();
            byte[] flipped = (byte[])blob.Clone();
            flipped[blob.Length / 2] ^= 0x10;
            Assert.AreEqual(Status.Format, Assert.Throws<KmxException>(() => Predictor.FromBytes(flipped)).Status);
            var truncated = new byte[blob.Length / 2];
            Array.Copy(blob, truncated, truncated.Length);
            Assert.AreEqual(Status.Format, Assert.Throws<KmxException>(() => Predictor.FromBytes(truncated)).Status);
            Assert.Throws<KmxException>(() => Predictor.FromBytes(new byte[0]));
            Assert.Throws<ArgumentNullException>(() => Predictor.FromBytes(null));
            string missing = Path.Combine(Path.GetTempPath(), $"kmx_cs_missing_{Guid.NewGuid():N}.kmxp");
            Assert.AreEqual(Status.Io, Assert.Throws<KmxException>(() => Predictor.Load(missing)).Status);
            using (var wide = new Dataset(new double[17 * 3], 17, null))
                Assert.AreEqual(Status.InvalidArgument, Assert.Throws<KmxException>(() => predictor.Predict(null, wide)).Status);
            var closed = Predictor.FromBytes(blob);
            closed.Dispose();
            var e = Assert.Throws<KmxException>(() => closed.Predict(null, test));
            StringAssert.Contains("predictor is NULL", e.NativeMessage);
            Assert.Throws<KmxException>(() => closed.ToBytes());
        }
    }
}
