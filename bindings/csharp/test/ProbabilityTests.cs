using System;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>Probability estimates (Param.Probability = 1, LIBSVM's -b 1) on 600 rows of multiclass Letter: every row
    /// of Model.PredictProbability sums to 1 and its most probable class is the voted label on most rows; they survive
    /// saving; a model without them and an SVR model raise KmxException saying why; a compact predictor keeps them.</summary>
    [TestFixture]
    public class ProbabilityTests
    {
        [Test]
        public void ProbabilitiesSumToOneAgreeWithTheVotesAndSurviveSaving()
        {
            using (var kernel = new Kernel("kernel=rbf gamma=2"))
            using (var letter = Dataset.Load(TestData.LetterTrain))
            using (var train = TestData.Rows(letter, 0, 600))
            using (var solver = new Solver("method=svm C=8 probability=1"))
            using (Model model = solver.Train(null, kernel, train))
            {
                Assert.IsTrue(model.HasProbabilities);
                double[] p = model.PredictProbability(null, train), labels = model.ClassLabels();
                double[] voted = model.Predict(null, train);
                int k = labels.Length, agree = 0;
                Assert.AreEqual(600 * k, p.Length);
                for (int i = 0; i < 600; ++i)
                {
                    double sum = 0;
                    int best = 0;
                    for (int c = 0; c < k; ++c)
                    {
                        Assert.That(p[i * k + c], Is.GreaterThan(0).And.LessThan(1));
                        sum += p[i * k + c];
                        if (p[i * k + c] > p[i * k + best]) best = c;
                    }
                    Assert.AreEqual(1.0, sum, 1e-9);
                    if (labels[best] == voted[i]) ++agree;
                }
                Assert.GreaterOrEqual(agree, 540, "the most probable class is the voted one");
                using (Model loaded = Model.LoadFromBuffer(model.SaveToBuffer()))
                {
                    Assert.IsTrue(loaded.HasProbabilities);
                    Assert.AreEqual(p, loaded.PredictProbability(null, train));
                }
            }
        }

        [Test]
        public void ModelsWithoutProbabilitiesRaiseSayingWhy()
        {
            using (var kernel = new Kernel("kernel=rbf gamma=2"))
            using (var letter = Dataset.Load(TestData.LetterBinTrain))
            using (var train = TestData.Rows(letter, 0, 200))
            using (var plain = new Solver("method=svm"))
            using (var svr = new Solver("method=svr"))
            using (Model model = plain.Train(null, kernel, train))
            using (Model regression = svr.Train(null, kernel, train))
            {
                Assert.IsFalse(model.HasProbabilities);
                var e = Assert.Throws<KmxException>(() => model.PredictProbability(null, train));
                StringAssert.Contains("trained without probability estimates", e.Message);
                e = Assert.Throws<KmxException>(() => regression.PredictProbability(null, train));
                StringAssert.Contains("svr (regression) model has no probability", e.Message);
                svr.SetParam(Param.Probability, 1);
                e = Assert.Throws<KmxException>(() => svr.Train(null, kernel, train));
                StringAssert.Contains("method svr has no probability estimates", e.Message);
            }
        }
    

        /// <summary>A near-exact compact predictor (one leaf, a landmark per row) of a model trained with probabilities gives
        /// the model's probabilities to 0.02 (the largest gap measured 0.00081 with these settings), rows summing to 1, the
        /// model's labels; one of a model without them raises KmxException saying so (issue 16).</summary>
        [Test]
        public void ACompactPredictorKeepsTheModelsProbabilities()
        {
            using (var ctx = new Context("threads=1 seed=3"))
            using (var kernel = new Kernel("kernel=rbf gamma=2"))
            using (var letter = Dataset.Load(TestData.LetterTrain))
            using (var train = TestData.Rows(letter, 0, 300))
            using (var solver = new Solver("method=svm C=8 probability=1"))
            using (var plain = new Solver("method=svm C=8"))
            using (Model model = solver.Train(ctx, kernel, train))
            using (Model without = plain.Train(ctx, kernel, train))
            using (var predictor = Predictor.Build(ctx, model, train, "leaves=1 landmarks=300"))
            using (var none = Predictor.Build(ctx, without, train, "leaves=1 landmarks=30"))
            {
                Assert.IsTrue(predictor.HasProbabilities);
                Assert.AreEqual(model.ClassLabels(), predictor.ClassLabels());
                double[] ours = predictor.PredictProbability(ctx, train), theirs = model.PredictProbability(ctx, train);
                int k = (int)predictor.Classes;
                double largest = 0;
                for (int i = 0; i < 300; ++i)
                {
                    double sum = 0;
                    for (int c = 0; c < k; ++c)
                    {
                        sum += ours[i * k + c];
                        largest = Math.Max(largest, Math.Abs(ours[i * k + c] - theirs[i * k + c]));
                    }
                    Assert.AreEqual(1.0, sum, 1e-12);
                }
                Assert.Less(largest, 0.02);
                Assert.IsFalse(none.HasProbabilities);
                var e = Assert.Throws<KmxException>(() => none.PredictProbability(ctx, train));
                StringAssert.Contains("carries no probability estimates", e.Message);
            }
        }
    }
}
