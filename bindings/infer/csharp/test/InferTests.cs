using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Kmx.Infer.Tests
{
    /// <summary>
    /// Kmx.Infer against the full binding (Kmx.Predictor) on the bundled predictors (KMX_PREDICTORS: the
    /// Letter one of examples/mcu on the Letter test rows, the edge one of examples/edge on random rows):
    /// labels, decision values, threads sharing a predictor, corrupt blobs, bad rows, disposal, memory,
    /// and which native was loaded.
    /// </summary>
    [TestFixture]
    public class InferTests
    {
        private const int LetterFeatures = 16;

        /// <summary>A bundled predictor's blob, the rows it is tested on and the full binding's results on them.</summary>
        private sealed class Case
        {
            public string Name;
            public byte[] Blob;
            public double[] Rows;
            public int Features;
            public double[] Labels;
            public double[] DecisionValues;

            public int Count => Rows.Length / Features;

            public double[] Row(int i)
            {
                var x = new double[Features];
                Array.Copy(Rows, i * Features, x, 0, Features);
                return x;
            }
        }

        private List<Case> cases;

        [TestFixtureSetUp]
        public void ReadPredictors()
        {
            cases = new List<Case>();
            foreach (string path in Environment.GetEnvironmentVariable("KMX_PREDICTORS").Split(','))
            {
                var c = new Case { Name = Path.GetFileName(path), Blob = File.ReadAllBytes(path) };
                using (var full = Kmx.Predictor.FromBytes(c.Blob))
                {
                    c.Features = (int)full.Columns;
                    c.Rows = c.Features == LetterFeatures ? LetterRows() : RandomRows(500, c.Features);
                    using (var data = new Dataset(c.Rows, c.Features))
                    {
                        c.Labels = full.Predict(null, data);
                        c.DecisionValues = full.DecisionValues(null, data);
                    }
                }
                cases.Add(c);
            }
        }

        private static double[] LetterRows()
        {
            string path = Path.Combine(Environment.GetEnvironmentVariable("KMX_EXAMPLE_DATA"), "letter_bin.test.libsvm");
            using (var test = Dataset.Load(path))
            {
                Assert.AreEqual(LetterFeatures, test.Cols);
                return test.GetRows(0, test.Rows);
            }
        }

        private static double[] RandomRows(int count, int features)
        {
            var random = new Random(15);
            return Enumerable.Range(0, count * features).Select(_ => 3 * random.NextDouble() - 1.5).ToArray();
        }

        /// <summary>Predicts rows [begin, end) of c with one scratch; returns their labels.</summary>
        private static double[] PredictRows(Predictor predictor, Case c, int begin, int end)
        {
            using (var scratch = predictor.NewScratch())
                return Enumerable.Range(begin, end - begin).Select(i => predictor.Predict(c.Row(i), scratch)).ToArray();
        }

        [Test]
        public void LoadsTheNativeForThisMachineFromRuntimes()
        {
            using (var predictor = Predictor.Open(cases[0].Blob))
            {
                string maps = File.ReadAllText("/proc/self/maps");
                StringAssert.Contains("/runtimes/linux-x64/native/libkmx_infer.so", maps);
            }
        }

        [Test]
        public void LabelsAndDecisionValuesEqualTheFullBinding()
        {
            foreach (Case c in cases)
            {
                using (var predictor = Predictor.Open(c.Blob))
                using (var full = Kmx.Predictor.FromBytes(c.Blob))
                using (var scratch = predictor.NewScratch())
                {
                    Assert.AreEqual(c.Features, predictor.Features);
                    Assert.AreEqual(full.DecisionValuesPerRow, predictor.Outputs);
                    Assert.AreEqual(full.Classes, predictor.Classes);
                    Assert.AreEqual(full.IsFloat32, predictor.IsFloat32);
                    // The C++ predictor and kmx_infer agree to 1e-12 in double, 1e-4 in float (kmx_infer.h).
                    double tolerance = predictor.IsFloat32 ? 1e-4 : 1e-12;
                    var outputs = new double[predictor.Outputs];
                    for (int i = 0; i < c.Count; i++)
                    {
                        Assert.AreEqual(c.Labels[i], predictor.Predict(c.Row(i), outputs, scratch), c.Name + " row " + i);
                        for (int k = 0; k < outputs.Length; k++)
                        {
                            double expected = c.DecisionValues[i * outputs.Length + k];
                            Assert.AreEqual(expected, outputs[k], tolerance * Math.Max(1, Math.Abs(expected)),
                                            c.Name + " row " + i);
                        }
                    }
                }
            }
        }

        /// <summary>A predictor built here from a model trained with probabilities (float64 storage): Kmx.Infer's
        /// probabilities equal the full binding's on the same blob to 1e-12 and sum to 1; a bundled predictor (no
        /// sigmoids) throws KMX_INFER_E_NO_PROBABILITIES.</summary>
        [Test]
        public void ProbabilitiesEqualTheFullBinding()
        {
            string path = Path.Combine(Environment.GetEnvironmentVariable("KMX_EXAMPLE_DATA"), "letter_mc.train.libsvm");
            using (var ctx = new Context("threads=1 seed=3"))
            using (var kernel = new Kernel("kernel=rbf gamma=2"))
            using (var letter = Dataset.Load(path))
            using (var solver = new Solver("method=svm C=8 probability=1"))
            {
                int d = (int)letter.Cols;
                double[] values = letter.GetRows(0, 200), labels = letter.GetLabels().Take(200).ToArray();
                using (var train = new Dataset(values, d, labels))
                using (Model model = solver.Train(ctx, kernel, train))
                using (var full = Kmx.Predictor.Build(ctx, model, train, "leaves=2 landmarks=40 storage=float64"))
                using (var predictor = Predictor.Open(full.ToBytes()))
                using (var scratch = predictor.NewScratch())
                {
                    Assert.IsTrue(predictor.HasProbabilities);
                    double[] expected = full.PredictProbability(ctx, train);
                    int k = predictor.Classes;
                    for (int i = 0; i < 200; ++i)
                    {
                        double[] p = predictor.PredictProbability(new ReadOnlySpan<double>(values, d * i, d), scratch);
                        for (int c = 0; c < k; ++c) Assert.AreEqual(expected[i * k + c], p[c], 1e-12, "row " + i);
                        Assert.AreEqual(1.0, p.Sum(), 1e-12);
                    }
                }
            }
            using (var without = Predictor.Open(cases[0].Blob))
            using (var scratch = without.NewScratch())
            {
                Assert.IsFalse(without.HasProbabilities);
                var e = Assert.Throws<InferException>(() => without.PredictProbability(cases[0].Row(0), scratch));
                Assert.AreEqual("KMX_INFER_E_NO_PROBABILITIES", e.StatusName);
            }
        }

        [Test]
        public void ThreadsShareOnePredictor()
        {
            Case c = cases[0];
            const int threads = 8;
            using (var predictor = Predictor.Open(c.Blob))
            {
                // Each thread predicts every row, starting at its own offset, with its own scratch.
                var parts = Enumerable.Range(0, threads).Select(t => Task.Factory.StartNew(() =>
                {
                    int shift = t * c.Count / threads;
                    return PredictRows(predictor, c, shift, c.Count).Concat(PredictRows(predictor, c, 0, shift)).ToArray();
                }, TaskCreationOptions.LongRunning)).ToArray();
                for (int t = 0; t < threads; t++)
                {
                    int shift = t * c.Count / threads;
                    double[] expected = c.Labels.Skip(shift).Concat(c.Labels.Take(shift)).ToArray();
                    CollectionAssert.AreEqual(expected, parts[t].Result);
                }
            }
        }

        [Test]
        public void CorruptBlobsThrowTheStatus()
        {
            byte[] blob = cases[0].Blob;
            byte[] flipped = (byte[])blob.Clone();
            flipped[flipped.Length / 2] ^= 0x40;
            byte[][] corrupt = { flipped, blob.Take(blob.Length - 8).ToArray(), new byte[0],
                                 System.Text.Encoding.UTF8.GetBytes("not a predictor") };
            foreach (byte[] bytes in corrupt)
            {
                var e = Assert.Throws<InferException>(() => Predictor.Open(bytes));
                Assert.AreEqual(3, e.Code);
                Assert.AreEqual("KMX_INFER_E_FORMAT", e.StatusName);
                Assert.AreEqual("kmx_infer_required_bytes: KMX_INFER_E_FORMAT", e.Message);
            }
        }

        [Test]
        public void BadRowsThrowTheStatus()
        {
            Case c = cases[0];
            using (var predictor = Predictor.Open(c.Blob))
            using (var scratch = predictor.NewScratch())
            {
                var e = Assert.Throws<InferException>(() => predictor.Predict(new double[c.Features - 1], scratch));
                Assert.AreEqual("KMX_INFER_E_INVALID_ARGUMENT", e.StatusName);
                e = Assert.Throws<InferException>(() => predictor.Predict((double[])null, scratch));
                Assert.AreEqual("KMX_INFER_E_INVALID_ARGUMENT", e.StatusName);
                Assert.Throws<ArgumentNullException>(() => predictor.Predict(c.Row(0), null));
            }
        }

        [Test]
        public void OpensFromAStreamAndASpan()
        {
            Case c = cases[0];
            var padded = new byte[c.Blob.Length + 3];
            Array.Copy(c.Blob, 0, padded, 3, c.Blob.Length);
            using (var fromStream = Predictor.Open(new MemoryStream(c.Blob)))
            using (var fromSpan = Predictor.Open(new ReadOnlySpan<byte>(padded, 3, c.Blob.Length)))
            {
                CollectionAssert.AreEqual(c.Labels, PredictRows(fromStream, c, 0, c.Count));
                CollectionAssert.AreEqual(c.Labels, PredictRows(fromSpan, c, 0, c.Count));
            }
        }

        [Test]
        public void DisposedObjectsRefuseCalls()
        {
            Case c = cases[0];
            var predictor = Predictor.Open(c.Blob);
            var scratch = predictor.NewScratch();
            predictor.Dispose();
            predictor.Dispose();
            Assert.Throws<ObjectDisposedException>(() => predictor.Predict(c.Row(0), scratch));
            Assert.Throws<ObjectDisposedException>(() => predictor.NewScratch());
            using (var open = Predictor.Open(c.Blob))
            {
                scratch.Dispose();
                Assert.Throws<ObjectDisposedException>(() => open.Predict(c.Row(0), scratch));
            }
        }

        /// <summary>glibc's malloc statistics (mallinfo2's ten counters).</summary>
        [StructLayout(LayoutKind.Sequential)]
        private struct MallocInfo
        {
            public UIntPtr Arena, Ordblks, Smblks, Hblks, Hblkhd, Usmblks, Fsmblks, Uordblks, Fordblks, Keepcost;

            /// <summary>Bytes allocated and not freed: in the heap and in their own mappings.</summary>
            public ulong InUse => Uordblks.ToUInt64() + Hblkhd.ToUInt64();
        }

        [DllImport("libc.so.6")]
        private static extern MallocInfo mallinfo2();

        /// <summary>Opening and disposing many predictors leaves no unmanaged memory allocated.</summary>
        [Test]
        public void DisposedPredictorsReleaseTheirMemory()
        {
            Case c = cases[0];
            Action openMany = () =>
            {
                for (int i = 0; i < 500; i++)
                    using (var predictor = Predictor.Open(c.Blob))
                    using (var scratch = predictor.NewScratch())
                        predictor.Predict(c.Row(i % c.Count), scratch);
            };
            openMany();  // the first round lets the runtime make what it keeps (marshalling thunks, ...)
            ulong before = mallinfo2().InUse;
            openMany();
            long grown = (long)mallinfo2().InUse - (long)before;
            // 500 blobs left allocated would be 500 x 137 KiB = 68 MiB.
            Assert.Less(grown, 1 << 20, "malloc'd memory grew by " + grown + " bytes over 500 predictors");
        }
    }
}
