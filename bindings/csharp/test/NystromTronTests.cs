using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>The Nyström kernel machine trained by TRON (method=nystrom_tron) in one process: its
    /// parameters, its accuracy next to the exact SVM on the same rows, its model file, and its errors.</summary>
    [TestFixture]
    public class NystromTronTests
    {
        Dataset letter, train, test;
        Kernel rbf;

        [TestFixtureSetUp]
        public void Load()
        {
            letter = Dataset.Load(TestData.LetterBinTrain);
            train = TestData.Rows(letter, 0, 1000);
            test = TestData.Rows(letter, 1000, 1600);
            rbf = new Kernel("kernel=rbf gamma=16");
        }

        [TestFixtureTearDown]
        public void Free()
        {
            rbf.Dispose();
            test.Dispose();
            train.Dispose();
            letter.Dispose();
        }

        double Accuracy(Model model) => TestData.Accuracy(model.Predict(null, test), test.GetLabels());

        [Test]
        public void ParametersComeFromTheTable()
        {
            using (var solver = new Solver(SolverMethod.NystromTron))
            {
                Assert.AreEqual((double)LossFunction.LossAuto, solver.GetParam(Param.Loss));
                Assert.AreEqual(1.0, solver.GetParam(Param.Stages));
                Assert.AreEqual(100.0, solver.GetParam(Param.NewtonIterations));
                Assert.AreEqual(1.0, solver.GetParam(Param.Precondition));
                solver.SetParams("loss=squared_hinge stages=2");
                Assert.AreEqual((double)LossFunction.LossSquaredHinge, solver.GetParam(Param.Loss));
            }
        }

        [Test]
        public void ClassifiesNearlyAsWellAsTheExactSvm()
        {
            using (var tron = new Solver("method=nystrom_tron centers=600 C=1 stages=2 center_method=kmeans"))
            using (var svm = new Solver("method=svm C=1"))
            using (Model machine = tron.Train(null, rbf, train))
            using (Model exact = svm.Train(null, rbf, train))
            {
                Assert.AreEqual(SolverMethod.NystromTron, machine.Method);
                Assert.AreEqual(600, machine.SupportVectors);
                double ours = Accuracy(machine), reference = Accuracy(exact);
                System.Console.WriteLine("nystrom_tron accuracy {0:F4}, exact SVM {1:F4}", ours, reference);
                Assert.Greater(ours, reference - 0.04);
            }
        }

        [Test]
        public void TheModelFileKeepsEveryPrediction()
        {
            using (var solver = new Solver("method=nystrom_tron centers=100 loss=logistic"))
            using (Model model = solver.Train(null, rbf, train))
            using (Model copy = Model.LoadFromBuffer(model.SaveToBuffer()))
            {
                Assert.AreEqual(SolverMethod.NystromTron, copy.Method);
                Assert.AreEqual(model.DecisionValues(null, test), copy.DecisionValues(null, test));
            }
        }

        [Test]
        public void BadParametersAndDataRaise()
        {
            Assert.Throws<KmxException>(() => new Solver("method=nystrom_tron stages=0"));
            using (var solver = new Solver("method=nystrom_tron centers=5000"))
                StringAssert.Contains("at most n = 1000", Assert.Throws<KmxException>(() => solver.Train(null, rbf, train)).Message);
            using (var solver = new Solver("method=nystrom_tron loss=logistic task=regression"))
                StringAssert.Contains("loss=squared", Assert.Throws<KmxException>(() => solver.Train(null, rbf, train)).Message);
        }
    }
}
