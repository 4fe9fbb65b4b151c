using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>Solver parameters, class weights and the training errors.</summary>
    [TestFixture]
    public class SolverTests
    {
        /// <summary>Two separable classes of four points each in two columns.</summary>
        static Dataset TwoClusters(double[] labels = null) =>
            new Dataset(new double[] { 0, 0, 0.1, 0, 0, 0.1, 0.1, 0.1, 1, 1, 0.9, 1, 1, 0.9, 0.9, 0.9 }, 2,
                        labels ?? new double[] { -1, -1, -1, -1, 1, 1, 1, 1 });

        [Test]
        public void CreatedFromAMethod()
        {
            using (var svm = new Solver(SolverMethod.Svm))
            using (var bka = new Solver(SolverMethod.Bka))
            {
                Assert.AreEqual(SolverMethod.Svm, svm.Method);
                Assert.AreEqual((double)SolverMethod.Bka, bka.GetParam(Param.Method));
                Assert.AreEqual(1.0, svm.GetParam(Param.C));
            }
        }

        [Test]
        public void CreatedFromAString()
        {
            using (var solver = Solver.FromString("method=svm C=8 eps=1e-4"))
            using (var byDefault = new Solver("C=2"))
            {
                Assert.AreEqual(SolverMethod.Svm, solver.Method);
                Assert.AreEqual(8.0, solver.GetParam(Param.C));
                Assert.AreEqual(1e-4, solver.GetParam(Param.Eps));
                Assert.AreEqual(SolverMethod.Dcsvm, byDefault.Method);
                Assert.AreEqual(2.0, byDefault.GetParam(Param.C));
            }
        }

        [Test]
        public void ParamsRoundTrip()
        {
            using (var solver = new Solver(SolverMethod.DcsvmEarly))
            {
                solver.SetParam(Param.Levels, 3);
                solver.SetParam(Param.Bias, (double)BiasMode.BiasOn);
                solver.SetParams("clusters_per_level=8 multiclass=ovr early_level=2 sample_size=500 shrinking=0");
                Assert.AreEqual(3.0, solver.GetParam(Param.Levels));
                Assert.AreEqual((double)BiasMode.BiasOn, solver.GetParam(Param.Bias));
                Assert.AreEqual(8.0, solver.GetParam(Param.ClustersPerLevel));
                Assert.AreEqual((double)MulticlassMode.Ovr, solver.GetParam(Param.Multiclass));
                Assert.AreEqual(2.0, solver.GetParam(Param.EarlyLevel));
                Assert.AreEqual(500.0, solver.GetParam(Param.SampleSize));
                Assert.AreEqual(0.0, solver.GetParam(Param.Shrinking));
                solver.SetParams("bias=off");
                Assert.AreEqual((double)BiasMode.BiasOff, solver.GetParam(Param.Bias));
            }
        }

        [Test]
        public void ZeroCIsAnInvalidArgument()
        {
            using (var solver = new Solver(SolverMethod.Svm))
            {
                var e = Assert.Throws<KmxException>(() => solver.SetParam(Param.C, 0));
                Assert.AreEqual(Status.InvalidArgument, e.Status);
                StringAssert.Contains("parameter C ", e.NativeMessage);
                var fromString = Assert.Throws<KmxException>(() => solver.SetParams("C=0"));
                Assert.AreEqual(Status.InvalidArgument, fromString.Status);
                StringAssert.Contains("C", fromString.NativeMessage);
                Assert.AreEqual(1.0, solver.GetParam(Param.C));
            }
            Assert.AreEqual(Status.InvalidArgument, Assert.Throws<KmxException>(() => new Solver("method=svm C=0")).Status);
        }

        [Test]
        public void ParamsOfOtherObjectsAreRefused()
        {
            using (var solver = new Solver(SolverMethod.Svm))
            {
                Assert.Throws<KmxException>(() => solver.SetParam(Param.Gamma, 1));
                Assert.Throws<KmxException>(() => solver.SetParams("no_such_param=1"));
            }
        }

        [Test]
        public void ClassWeightsChangeTheProblem()
        {
            using (var data = TwoClusters())
            using (var kernel = new Kernel("kernel=rbf gamma=1"))
            using (var plain = new Solver("method=svm C=0.1"))
            using (var weighted = new Solver("method=svm C=0.1"))
            {
                weighted.SetClassWeight(1, 10);
                var e = Assert.Throws<KmxException>(() => weighted.SetClassWeight(-1, 0));
                Assert.AreEqual(Status.InvalidArgument, e.Status);
                using (Model a = plain.Train(null, kernel, data))
                using (Model b = weighted.Train(null, kernel, data))
                {
                    Assert.AreNotEqual(a.Objective, b.Objective);
                }
            }
        }

        [Test]
        public void OneClassDataIsAnInvalidArgument()
        {
            using (var data = TwoClusters(new double[] { 1, 1, 1, 1, 1, 1, 1, 1 }))
            using (var kernel = new Kernel(KernelType.Rbf))
            using (var solver = new Solver(SolverMethod.Svm))
            {
                var e = Assert.Throws<KmxException>(() => solver.Train(null, kernel, data));
                Assert.AreEqual(Status.InvalidArgument, e.Status);
                Assert.AreEqual("KMX_E_INVALID_ARGUMENT", e.StatusName);
            }
        }

        [Test]
        public void UnlabelledDataIsRefused()
        {
            using (var data = new Dataset(TestData.Values(8, 3), 2))
            using (var kernel = new Kernel(KernelType.Rbf))
            using (var solver = new Solver(SolverMethod.Svm))
                Assert.AreEqual(Status.InvalidArgument, Assert.Throws<KmxException>(() => solver.Train(null, kernel, data)).Status);
        }

        [Test]
        public void TrainingTakesAContext()
        {
            using (var ctx = new Context("threads=2 seed=3"))
            using (var data = TwoClusters())
            using (var kernel = new Kernel("kernel=rbf gamma=1"))
            using (var solver = new Solver("method=svm C=10"))
            using (Model model = solver.Train(ctx, kernel, data))
                CollectionAssert.AreEqual(data.GetLabels(), model.Predict(ctx, data));
        }

        [Test]
        public void ProgressCallbackCanCancelTraining()
        {
            var phases = new System.Collections.Generic.List<string>();
            using (var ctx = new Context())
            using (var all = Dataset.Load(TestData.LetterBinTrain))
            using (var data = TestData.Rows(all, 0, 300))
            using (var kernel = new Kernel("kernel=rbf gamma=16"))
            using (var solver = new Solver("method=dcsvm C=8 levels=2"))
            {
                ctx.SetProgressCallback((fraction, phase) => { phases.Add(phase); return false; });
                solver.Train(ctx, kernel, data).Dispose();
                Assert.IsNotEmpty(phases);
                ctx.SetProgressCallback((fraction, phase) => true);
                var e = Assert.Throws<KmxException>(() => solver.Train(ctx, kernel, data));
                Assert.AreEqual(Status.Cancelled, e.Status);
            }
        }

        [Test]
        public void DisposedSolverPassesNullToC()
        {
            var solver = new Solver(SolverMethod.Svm);
            solver.Dispose();
            Assert.IsTrue(solver.IsDisposed);
            var e = Assert.Throws<KmxException>(() => solver.SetParam(Param.C, 2));
            Assert.AreEqual(Status.InvalidArgument, e.Status);
            StringAssert.Contains("is NULL", e.NativeMessage);
            using (var data = TwoClusters())
            using (var kernel = new Kernel(KernelType.Rbf))
                StringAssert.Contains("is NULL", Assert.Throws<KmxException>(() => solver.Train(null, kernel, data)).NativeMessage);
            solver.Dispose();
        }

        /// <summary>svm-train -c 8 -g 16 -v 5 on Letter rows 1-1000 gives 88.7% (its own folds).</summary>
        [Test]
        public void CrossValidationIsCloseToLibsvmsAndSeeded()
        {
            using (var all = Dataset.Load(TestData.LetterBinTrain))
            using (var rows = TestData.Rows(all, 0, 1000))
            using (var solver = new Solver("method=svm C=8"))
            using (var rbf = new Kernel("kernel=rbf gamma=16"))
            using (var seeded = new Context("seed=3"))
            {
                double[] predicted = solver.CrossValidate(null, rbf, rows, 5);
                Assert.AreEqual(1000, predicted.Length);
                Assert.AreEqual(0.887, TestData.Accuracy(predicted, rows.GetLabels()), 0.02);
                CollectionAssert.AreEqual(predicted, solver.CrossValidate(null, rbf, rows, 5));
                CollectionAssert.AreNotEqual(predicted, solver.CrossValidate(seeded, rbf, rows, 5));  // other folds
                var e = Assert.Throws<KmxException>(() => solver.CrossValidate(null, rbf, rows, 1));
                Assert.AreEqual(Status.InvalidArgument, e.Status);
                StringAssert.Contains("at least 2 folds", e.Message);
            }
        }

        /// <summary>A path along C: each element as CrossValidate at that C alone.</summary>
        [Test]
        public void CrossValidationPathIsEachCAlone()
        {
            using (var all = Dataset.Load(TestData.LetterBinTrain))
            using (var rows = TestData.Rows(all, 0, 300))
            using (var solver = new Solver("method=svm eps=1e-6"))
            using (var rbf = new Kernel("kernel=rbf gamma=16"))
            {
                double[] costs = { 8, 1 };
                double[][] path = solver.CrossValidatePath(null, rbf, rows, 4, Param.C, costs);
                Assert.AreEqual(2, path.Length);
                for (int v = 0; v < costs.Length; v++)
                {
                    solver.SetParam(Param.C, costs[v]);
                    CollectionAssert.AreEqual(solver.CrossValidate(null, rbf, rows, 4), path[v]);
                }
                Assert.Throws<KmxException>(() => solver.CrossValidatePath(null, rbf, rows, 4, Param.Eps, costs));
            }
        }
    
        /// <summary>LIBSVM's precomputed rows of the Gaussian kernel: column 0 the serial number (0 for rows
        /// that are not training rows), then K(x, x_j) over the training rows.</summary>
        static double[] Gram(double[] rows, double[] train, int d, double gamma, bool serials)
        {
            int n = rows.Length / d, l = train.Length / d;
            var k = new double[n * (l + 1)];
            for (int i = 0; i < n; i++)
            {
                k[i * (l + 1)] = serials ? i + 1 : 0;
                for (int j = 0; j < l; j++)
                {
                    double sum = 0;
                    for (int c = 0; c < d; c++) sum += (rows[i * d + c] - train[j * d + c]) * (rows[i * d + c] - train[j * d + c]);
                    k[i * (l + 1) + 1 + j] = System.Math.Exp(-gamma * sum);
                }
            }
            return k;
        }

        [Test]
        public void APrecomputedGaussianMatrixTrainsTheRbfModel()
        {
            var random = new System.Random(7);
            int n = 120, d = 3;
            var x = new double[n * d];
            var xt = new double[40 * d];
            var y = new double[n];
            for (int i = 0; i < x.Length; i++) x[i] = random.NextDouble() + (i % d == 0 && (i / d) % 2 == 1 ? 0.6 : 0);
            for (int i = 0; i < xt.Length; i++) xt[i] = random.NextDouble();
            for (int i = 0; i < n; i++) y[i] = i % 2 == 1 ? 1 : -1;
            using (var ctx = new Context("threads=1"))
            using (var solver = new Solver("method=svm C=4"))
            using (var rbf = new Kernel("kernel=rbf gamma=2"))
            using (var precomputed = new Kernel(KernelType.Precomputed))
            using (var features = new Dataset(x, d, y))
            using (var test = new Dataset(xt, d))
            using (var k = new Dataset(Gram(x, x, d, 2, true), n + 1, y))
            using (var kt = new Dataset(Gram(xt, x, d, 2, false), n + 1))
            using (var byFeatures = solver.Train(ctx, rbf, features))
            using (var byMatrix = solver.Train(ctx, precomputed, k))
            {
                Assert.AreEqual(byFeatures.Objective, byMatrix.Objective, 1e-9 * System.Math.Abs(byFeatures.Objective));
                double[] expected = byFeatures.DecisionValues(ctx, test), actual = byMatrix.DecisionValues(ctx, kt);
                for (int i = 0; i < expected.Length; i++) Assert.AreEqual(expected[i], actual[i], 1e-9);
                using (var loaded = Model.LoadFromBuffer(byMatrix.SaveToBuffer()))
                    CollectionAssert.AreEqual(actual, loaded.DecisionValues(ctx, kt));
                using (var dcsvm = new Solver(SolverMethod.Dcsvm))
                {
                    var e = Assert.Throws<KmxException>(() => dcsvm.Train(ctx, precomputed, k));
                    Assert.AreEqual(Status.InvalidArgument, e.Status);
                    StringAssert.Contains("method dcsvm needs feature vectors", e.Message);
                }
            }
        }
}
}
