using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>k-means results against recomputations in C#.</summary>
    [TestFixture]
    public class KMeansTests
    {
        [Test]
        public void ObjectiveMatchesARecomputation()
        {
            using (var ctx = new Context("seed=42"))
            using (var data = Dataset.Load(ctx, TestData.LetterTrain))
            {
                const int k = 8;
                int d = (int)data.Cols, n = (int)data.Rows;
                KMeansResult result = KMeans.Fit(ctx, data, k, "max_iter=20");
                Assert.AreEqual(k * d, result.Centers.Length);
                Assert.AreEqual(n, result.Assignment.Length);

                double[] x = data.GetRows(0, n);
                double objective = 0;
                for (int i = 0; i < n; ++i)
                {
                    Assert.That(result.Assignment[i], Is.InRange(0, k - 1));
                    objective += TestData.SquaredDistance(x, i, result.Centers, result.Assignment[i], d);
                }
                Assert.AreEqual(objective, result.Objective, 1e-9 * objective);
            }
        }

        [Test]
        public void SameSeedSameResult()
        {
            using (var data = Dataset.Load(TestData.LetterTrain))
            using (var first = new Context("seed=5"))
            using (var second = new Context("seed=5"))
            {
                KMeansResult a = KMeans.Fit(first, data, 5, "max_iter=10");
                KMeansResult b = KMeans.Fit(second, data, 5, "max_iter=10");
                CollectionAssert.AreEqual(a.Centers, b.Centers);
                CollectionAssert.AreEqual(a.Assignment, b.Assignment);
            }
        }

        [Test]
        public void AssignFindsTheNearestCenter()
        {
            double[] x = { 0, 0, 0.1, 0, 5, 5, 5.2, 4.9 };
            var centers = new double[,] { { 5, 5 }, { 0, 0 } };
            using (var data = new Dataset(x, 2))
            {
                KMeansAssignment result = KMeans.Assign(null, data, centers);
                CollectionAssert.AreEqual(new[] { 1, 1, 0, 0 }, result.Assignment);
                Assert.AreEqual(0.01, result.SquaredDistances[1], 1e-12);
                Assert.AreEqual(0.2 * 0.2 + 0.1 * 0.1, result.SquaredDistances[3], 1e-12);
            }
        }

        [Test]
        public void AssignAgreesWithFit()
        {
            using (var ctx = new Context("seed=1"))
            using (var data = Dataset.Load(ctx, TestData.LetterTrain))
            {
                KMeansResult fit = KMeans.Fit(ctx, data, 6, "max_iter=30");
                KMeansAssignment assigned = KMeans.Assign(ctx, data, fit.Centers);
                double sum = 0;
                foreach (double s in assigned.SquaredDistances) sum += s;
                Assert.AreEqual(fit.Objective, sum, 1e-9 * sum);
            }
        }
    }
}
