using System;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>Kernel ridge regression through the solver (Krr, NystromKrr, MekaKrr, Falkon): regression models on a smooth
    /// synthetic function, their info, KRR classifiers and parameter errors.</summary>
    [TestFixture]
    public class RegressionTests
    {
        const int D = 3;
        Dataset train, test;
        double[] testTargets;
        Kernel kernel;

        /// <summary>n points uniform in [0,1)^3 with targets sin(2 pi x0) + x1^2 - x2.</summary>
        static Dataset Synthetic(Random random, int n, out double[] y)
        {
            var x = new double[n * D];
            for (int i = 0; i < x.Length; ++i) x[i] = random.NextDouble();
            y = new double[n];
            for (int i = 0; i < n; ++i)
                y[i] = Math.Sin(2 * Math.PI * x[i * D]) + x[i * D + 1] * x[i * D + 1] - x[i * D + 2];
            return new Dataset(x, D, y);
        }

        [TestFixtureSetUp]
        public void MakeData()
        {
            var random = new Random(11);
            train = Synthetic(random, 600, out double[] unused);
            test = Synthetic(random, 200, out testTargets);
            kernel = new Kernel("kernel=rbf gamma=4");
        }

        [TestFixtureTearDown]
        public void Free()
        {
            kernel.Dispose();
            test.Dispose();
            train.Dispose();
        }

        static double Rmse(double[] expected, double[] actual)
        {
            double sum = 0;
            for (int i = 0; i < expected.Length; ++i) sum += (expected[i] - actual[i]) * (expected[i] - actual[i]);
            return Math.Sqrt(sum / expected.Length);
        }

        Model Train(string parameters)
        {
            using (var solver = new Solver(parameters)) return solver.Train(null, kernel, train);
        }

        [TestCase(SolverMethod.Krr, "method=krr lambda=1e-6")]
        [TestCase(SolverMethod.NystromKrr, "method=nystrom_krr lambda=1e-6 centers=150")]
        [TestCase(SolverMethod.MekaKrr, "method=meka_krr lambda=1e-6 clusters=4 rank=40")]
        [TestCase(SolverMethod.Falkon, "method=falkon lambda=1e-6 centers=150 iterations=40")]
        public void FitsASmoothFunction(SolverMethod method, string parameters)
        {
            using (Model model = Train(parameters))
            {
                double rmse = Rmse(testTargets, model.Predict(null, test));
                Console.WriteLine("{0}: held-out rmse {1:G4}", method, rmse);
                Assert.AreEqual(method, model.Method);
                Assert.Less(rmse, 0.1);
            }
        }

        [Test]
        public void RegressionModelInfo()
        {
            using (Model model = Train("method=falkon lambda=1e-5 centers=100 iterations=30"))
            {
                Assert.AreEqual(LearningTask.TaskRegression, model.Task); // auto: the targets are not whole numbers
                Assert.IsTrue(model.IsRegression);
                Assert.AreEqual(0, model.Classes);
                Assert.AreEqual(0, model.ClassLabels().Length); // kmx_model_classes with NULL
                Assert.AreEqual(1e-5, model.Lambda);
                Assert.AreEqual(0.0, model.C);
                Assert.AreEqual(model.Lambda, model.Info(ModelInfoKey.InfoLambda));
                Assert.AreEqual((double)LearningTask.TaskRegression, model.Info(ModelInfoKey.InfoTask));
                Assert.AreEqual(D, model.Columns);
                Assert.AreEqual(1, model.DecisionValuesPerRow);
                double[] predicted = model.Predict(null, test);
                CollectionAssert.AreEqual(predicted, model.DecisionValues(null, test)); // regression: the values
                using (Model copy = Model.LoadFromBuffer(model.SaveToBuffer()))
                {
                    Assert.AreEqual(SolverMethod.Falkon, copy.Method);
                    Assert.AreEqual(LearningTask.TaskRegression, copy.Task);
                    CollectionAssert.AreEqual(predicted, copy.Predict(null, test));
                }
            }
        }

        /// <summary>epsilon-SVR (method=svr): a regression model with C and epsilon_svr that fits the function.</summary>
        [Test]
        public void SvrFitsASmoothFunction()
        {
            using (Model model = Train("method=svr C=10 epsilon_svr=0.05"))
            {
                double rmse = Rmse(testTargets, model.Predict(null, test));
                Console.WriteLine("Svr: held-out rmse {0:G4}", rmse);
                Assert.AreEqual(SolverMethod.Svr, model.Method);
                Assert.AreEqual(LearningTask.TaskRegression, model.Task);
                Assert.AreEqual(10.0, model.C);
                Assert.Less(rmse, 0.1);
            }
        }

        /// <summary>epsilon-SVR by DC-SVM (svr_dcsvm = 1; 0, the dual solver alone, is the default; a small sample and cache so that it
        /// divides) and by the dual solver alone (0): the same objective and predictions to the tolerance.</summary>
        [Test]
        public void SvrByDcsvmMatchesTheDualSolver()
        {
            var predicted = new double[2][];
            var objective = new double[2];
            for (int dcsvm = 0; dcsvm <= 1; ++dcsvm)
            {
                using (var solver = new Solver(SolverMethod.Svr))
                {
                    Assert.AreEqual(0.0, solver.GetParam(Param.SvrDcsvm));  // the default
                    solver.SetParams("C=10 epsilon_svr=0.05 eps=1e-5 sample_size=50 cache_size=20000");
                    solver.SetParam(Param.SvrDcsvm, dcsvm);
                    Assert.AreEqual((double)dcsvm, solver.GetParam(Param.SvrDcsvm));
                    using (Model model = solver.Train(null, kernel, train))
                    {
                        predicted[dcsvm] = model.Predict(null, test);
                        objective[dcsvm] = model.Info(ModelInfoKey.InfoObjective);
                    }
                }
            }
            double gap = Rmse(predicted[0], predicted[1]);
            Console.WriteLine("Svr by dcsvm: objective {0:G10} vs {1:G10}, prediction rmse {2:G3}", objective[1],
                              objective[0], gap);
            Assert.AreEqual(objective[0], objective[1], 1e-6 * Math.Abs(objective[0]));
            Assert.Less(gap, 1e-3);
        }

        [Test]
        public void FalkonApproachesExactKrr()
        {
            using (Model exact = Train("method=krr lambda=1e-4"))
            using (Model falkon = Train("method=falkon lambda=1e-4 centers=600 iterations=100"))
                Assert.Less(Rmse(exact.Predict(null, test), falkon.Predict(null, test)), 1e-2);
        }

        [Test]
        public void TaskOfClassifiers()
        {
            double[] x = train.GetRows(0, 300);
            double[] targets = train.GetLabels();
            var y = new double[300];
            for (int i = 0; i < y.Length; ++i) y[i] = targets[i] > 0 ? 1 : -1;
            using (var signs = new Dataset(x, D, y))
            {
                using (var svm = new Solver("method=svm C=4"))
                using (Model model = svm.Train(null, kernel, signs))
                {
                    Assert.AreEqual(LearningTask.TaskClassification, model.Task);
                    Assert.AreEqual(4.0, model.C);
                    Assert.AreEqual(0.0, model.Lambda);
                    Assert.AreEqual(4.0, model.Info(ModelInfoKey.InfoC));
                }
                using (var krr = new Solver("method=krr lambda=1e-3"))
                using (Model model = krr.Train(null, kernel, signs))
                {
                    Assert.AreEqual(LearningTask.TaskClassification, model.Task);
                    CollectionAssert.AreEqual(new double[] { -1, 1 }, model.ClassLabels());
                    Assert.Greater(TestData.Accuracy(model.Predict(null, signs), y), 0.9);
                }
                using (var krr = new Solver(SolverMethod.Krr))
                {
                    krr.SetParam(Param.Task, (double)LearningTask.TaskRegression);
                    using (Model model = krr.Train(null, kernel, signs))
                    {
                        Assert.AreEqual(LearningTask.TaskRegression, model.Task);
                        Assert.AreEqual(0, model.Classes);
                    }
                }
            }
        }

        [Test]
        public void KrrParameters()
        {
            using (var solver = new Solver(SolverMethod.Falkon))
            {
                Assert.AreEqual((double)LearningTask.TaskAuto, solver.GetParam(Param.Task));
                Assert.AreEqual(1e-6, solver.GetParam(Param.Lambda));
                Assert.AreEqual((double)CenterSelection.CentersUniform, solver.GetParam(Param.CenterMethod));
                solver.SetParams("task=regression lambda=1e-3 centers=64 center_method=kmeans iterations=15 tolerance=1e-8 validation=0.2");
                Assert.AreEqual((double)LearningTask.TaskRegression, solver.GetParam(Param.Task));
                Assert.AreEqual(64.0, solver.GetParam(Param.Centers));
                Assert.AreEqual((double)CenterSelection.CentersKmeans, solver.GetParam(Param.CenterMethod));
                Assert.AreEqual(15.0, solver.GetParam(Param.Iterations));
                Assert.AreEqual(1e-8, solver.GetParam(Param.Tolerance));
                Assert.AreEqual(0.2, solver.GetParam(Param.Validation));
                solver.SetParam(Param.CenterMethod, (double)CenterSelection.CentersLeverage);
                using (Model model = solver.Train(null, kernel, train))
                    Assert.Less(Rmse(testTargets, model.Predict(null, test)), 0.2);
            }
            using (var solver = new Solver("method=meka_krr rank=8 clusters=3 threshold=0 oversampling=1 rank_by_size=1"))
            {
                Assert.AreEqual(SolverMethod.MekaKrr, solver.Method);
                Assert.AreEqual(8.0, solver.GetParam(Param.Rank));
                Assert.AreEqual(3.0, solver.GetParam(Param.Clusters));
                Assert.AreEqual(0.0, solver.GetParam(Param.Threshold));
                Assert.AreEqual(1.0, solver.GetParam(Param.Oversampling));
                Assert.AreEqual(1.0, solver.GetParam(Param.RankBySize));
            }
        }

        [TestCase("lambda=0")]
        [TestCase("lambda=-1")]
        [TestCase("task=sideways")]
        [TestCase("center_method=random")]
        [TestCase("iterations=0")]
        [TestCase("validation=0.9")]
        public void BadKrrParametersAreInvalidArguments(string bad)
        {
            using (var solver = new Solver(SolverMethod.Falkon))
            {
                var e = Assert.Throws<KmxException>(() => solver.SetParams(bad));
                Assert.AreEqual(Status.InvalidArgument, e.Status);
                Assert.AreEqual(1e-6, solver.GetParam(Param.Lambda));
            }
        }
    }
}
