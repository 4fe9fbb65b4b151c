// Train.cs — train an SVM, predict, save and load the model (the example of bindings/csharp/README.md).
//   mono train_cs.exe examples/data/letter_bin.train.libsvm examples/data/letter_bin.test.libsvm
using System;
using System.IO;
using System.Linq;
using Kmx;

static class Train
{
    static int Main(string[] args)
    {
        using (var ctx = new Context("threads=2 seed=42"))             // null instead: no context
        using (var train = Dataset.Load(ctx, args[0]))                  // LIBSVM or CSV, label first
        using (var test = Dataset.Load(args[1]))
        using (var kernel = new Kernel("kernel=rbf gamma=16"))
        using (var solver = new Solver("method=dcsvm C=8"))
        using (Model model = solver.Train(ctx, kernel, train))         // the context comes first, as in C and Java
        {
            double[] predicted = model.Predict(ctx, test);
            double[] truth = test.GetLabels();
            double accuracy = predicted.Zip(truth, (p, y) => p == y ? 1.0 : 0.0).Average();
            Console.WriteLine($"{model.SupportVectors} support vectors, test accuracy {accuracy:P2}");

            string path = Path.GetTempFileName();
            model.Save(path);
            using (Model loaded = Model.Load(path))
            {
                bool same = loaded.Predict(null, test).SequenceEqual(predicted);
                Console.WriteLine("saved to " + path + ", loaded back: " + (same ? "same predictions" : "DIFFERENT"));
                File.Delete(path);
                return same ? 0 : 1;
            }
        }
    }
}
