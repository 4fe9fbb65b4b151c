using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>The one-class SVM (SolverMethod.OneClass, Param.Nu) through the generic solver API, on rows without
    /// labels, against LIBSVM's svm-train -s 2 on the same rows: its decision values are computed here from its
    /// model file (sum_i coef_i exp(-gamma |x_i - x|^2) - rho).</summary>
    [TestFixture]
    public class OneClassTests
    {
        const double Gamma = 0.5, Nu = 0.1;

        /// <summary>n rows of a 2-d standard normal (Box-Muller), rounded to 6 significant digits as the LIBSVM
        /// file holds them.</summary>
        static double[] NormalRows(Random random, int n)
        {
            var x = new double[2 * n];
            for (int i = 0; i < x.Length; ++i)
            {
                double u = 1.0 - random.NextDouble(), v = random.NextDouble();
                double z = Math.Sqrt(-2 * Math.Log(u)) * Math.Cos(2 * Math.PI * v);
                x[i] = double.Parse(z.ToString("G6", CultureInfo.InvariantCulture), CultureInfo.InvariantCulture);
            }
            return x;
        }

        static string SvmTrain()
        {
            foreach (string dir in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator))
            {
                string path = Path.Combine(dir, "svm-train");
                if (File.Exists(path)) return path;
            }
            return null;
        }

        [Test]
        public void DecisionValuesAgreeWithLibsvm()
        {
            var random = new Random(5);
            double[] x = NormalRows(random, 300), fresh = NormalRows(random, 100);
            fresh[0] = 6; // one far point: an outlier
            fresh[1] = -6;
            double[] f, labels;
            using (var kernel = new Kernel("kernel=rbf gamma=0.5"))
            using (var train = new Dataset(x, 2))
            using (var test = new Dataset(fresh, 2))
            using (var solver = new Solver(SolverMethod.OneClass))
            {
                Assert.AreEqual(0.5, solver.GetParam(Param.Nu)); // LIBSVM's default
                solver.SetParam(Param.Nu, Nu);
                Assert.Throws<KmxException>(() => solver.SetParam(Param.Nu, 0));
                using (Model model = solver.Train(null, kernel, train))
                {
                    Assert.AreEqual(SolverMethod.OneClass, model.Method);
                    Assert.AreEqual(Nu, model.Nu);
                    CollectionAssert.AreEqual(new[] { -1.0, 1.0 }, model.ClassLabels());
                    f = model.DecisionValues(null, test);
                    labels = model.Predict(null, test);
                }
            }
            for (int i = 0; i < f.Length; ++i) Assert.AreEqual(f[i] > 0 ? 1.0 : -1.0, labels[i]);
            Assert.AreEqual(-1.0, labels[0]);

            string svmTrain = SvmTrain();
            if (svmTrain == null) Assert.Ignore("svm-train (LIBSVM) is not installed");
            string dir = Path.Combine(Path.GetTempPath(), "kmx-one-class-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(dir);
            try
            {
                string data = Path.Combine(dir, "train.libsvm"), modelFile = Path.Combine(dir, "train.model");
                using (var writer = new StreamWriter(data))
                    for (int i = 0; i < 300; ++i)
                        writer.Write(string.Format(CultureInfo.InvariantCulture, "1 1:{0:G6} 2:{1:G6}\n", x[2 * i],
                                                   x[2 * i + 1]));
                var start = new ProcessStartInfo(svmTrain, string.Format(CultureInfo.InvariantCulture,
                    "-s 2 -n {0} -g {1} -e 0.001 {2} {3}", Nu, Gamma, data, modelFile))
                {
                    UseShellExecute = false,
                    RedirectStandardOutput = true
                };
                using (Process process = Process.Start(start))
                {
                    process.StandardOutput.ReadToEnd();
                    process.WaitForExit();
                    Assert.AreEqual(0, process.ExitCode);
                }
                double rho = 0;
                var sv = new List<double[]>();
                bool inSv = false;
                foreach (string line in File.ReadAllLines(modelFile))
                {
                    if (inSv)
                    {
                        string[] fields = line.Trim().Split(' ');
                        sv.Add(new[] {
                            double.Parse(fields[0], CultureInfo.InvariantCulture),
                            double.Parse(fields[1].Split(':')[1], CultureInfo.InvariantCulture),
                            double.Parse(fields[2].Split(':')[1], CultureInfo.InvariantCulture) });
                    }
                    else if (line.StartsWith("rho ", StringComparison.Ordinal))
                        rho = double.Parse(line.Substring(4), CultureInfo.InvariantCulture);
                    else if (line == "SV")
                        inSv = true;
                }
                double worst = 0;
                for (int t = 0; t < 100; ++t)
                {
                    double expected = -rho;
                    foreach (double[] s in sv)
                    {
                        double dx = s[1] - fresh[2 * t], dy = s[2] - fresh[2 * t + 1];
                        expected += s[0] * Math.Exp(-Gamma * (dx * dx + dy * dy));
                    }
                    worst = Math.Max(worst, Math.Abs(expected - f[t]));
                }
                Console.WriteLine("OneClass: {0} LIBSVM SVs, largest |f_kmx - f_libsvm| {1:G3}", sv.Count, worst);
                // Both stop at a largest KKT violation of 1e-3 on rho's scale: each within 1e-3 of the exact f.
                Assert.Less(worst, 2e-3);
            }
            finally
            {
                Directory.Delete(dir, true);
            }
        }
    }
}
