import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.kmx.Context;
import io.kmx.Dataset;
import io.kmx.Kernel;
import io.kmx.KmxException;
import io.kmx.Model;
import io.kmx.Param;
import io.kmx.Predictor;
import io.kmx.Solver;
import io.kmx.Status;
import org.junit.Test;

/**
 * Probability estimates (Param.PROBABILITY = 1, LIBSVM's -b 1) on 600 rows of multiclass Letter: every row of
 * Model.predictProbability sums to 1 and its most probable class is the voted label on most rows; the
 * probabilities survive saving; a model without them and an SVR model throw KmxException saying why; a compact
 * predictor keeps them (issue 16).
 */
public class ProbabilityTest {
    @Test
    public void probabilitiesSumToOneAgreeWithTheVotesAndSurviveSaving() {
        try (Context ctx = Context.create("threads=1 seed=3");
                Kernel rbf = Kernel.createFromString("kernel=rbf gamma=2");
                Dataset letter = Dataset.load(ctx, Reference.dataFile("letter_mc.train.libsvm"), io.kmx.Format.AUTO);
                Dataset train = Reference.rows(letter, 0, 600);
                Solver solver = Solver.createFromString("method=svm C=8")) {
            solver.setParam(Param.PROBABILITY, 1);
            try (Model model = solver.train(ctx, rbf, train)) {
                assertTrue(model.hasProbabilities());
                double[][] p = model.predictProbabilityRows(ctx, train);
                double[] labels = model.labels();
                double[] voted = model.predict(ctx, train);
                assertEquals(600, p.length);
                int agree = 0;
                for (int i = 0; i < p.length; i++) {
                    assertEquals(labels.length, p[i].length);
                    double sum = 0;
                    int best = 0;
                    for (int c = 0; c < p[i].length; c++) {
                        assertTrue(p[i][c] > 0 && p[i][c] < 1);
                        sum += p[i][c];
                        if (p[i][c] > p[i][best]) best = c;
                    }
                    assertEquals(1.0, sum, 1e-9);
                    if (labels[best] == voted[i]) agree++;
                }
                assertTrue("argmax agrees with the votes on " + agree + " of 600", agree >= 540);
                try (Model loaded = Model.loadFromBuffer(model.saveToBuffer())) {
                    assertTrue(loaded.hasProbabilities());
                    assertArrayEquals(model.predictProbability(ctx, train), loaded.predictProbability(ctx, train), 0);
                }
            }
        }
    }

    @Test
    public void modelsWithoutProbabilitiesThrowSayingWhy() {
        try (Kernel rbf = Kernel.createFromString("kernel=rbf gamma=2");
                Dataset letter = Dataset.load(Reference.dataFile("letter_bin.train.libsvm"));
                Dataset train = Reference.rows(letter, 0, 200);
                Solver plain = Solver.createFromString("method=svm");
                Solver svr = Solver.createFromString("method=svr");
                Model model = plain.train(null, rbf, train);
                Model regression = svr.train(null, rbf, train)) {
            assertFalse(model.hasProbabilities());
            KmxException e = assertThrows(KmxException.class, () -> model.predictProbability(null, train));
            assertSame(Status.INVALID_ARGUMENT, e.status());
            assertTrue(e.getMessage(), e.getMessage().contains("trained without probability estimates"));
            e = assertThrows(KmxException.class, () -> regression.predictProbability(null, train));
            assertTrue(e.getMessage(), e.getMessage().contains("svr (regression) model has no probability"));
            svr.setParam(Param.PROBABILITY, 1);
            e = assertThrows(KmxException.class, () -> svr.train(null, rbf, train));
            assertTrue(e.getMessage(), e.getMessage().contains("method svr has no probability estimates"));
        }
    }

    /**
     * A near-exact compact predictor (one leaf, a landmark per row) of a model trained with probabilities gives the
     * model's probabilities to 0.02 (the largest gap measured 0.00081), its rows sum to 1, its labels are the
     * model's; one of a model without them throws KmxException saying so.
     */
    @Test
    public void aCompactPredictorKeepsTheModelsProbabilities() {
        try (Context ctx = Context.create("threads=1 seed=3");
                Kernel rbf = Kernel.createFromString("kernel=rbf gamma=2");
                Dataset letter = Dataset.load(ctx, Reference.dataFile("letter_mc.train.libsvm"), io.kmx.Format.AUTO);
                Dataset train = Reference.rows(letter, 0, 300);
                Solver solver = Solver.createFromString("method=svm C=8 probability=1");
                Solver plain = Solver.createFromString("method=svm C=8");
                Model model = solver.train(ctx, rbf, train);
                Model without = plain.train(ctx, rbf, train);
                Predictor predictor = Predictor.build(ctx, model, train, "leaves=1 landmarks=300");
                Predictor none = Predictor.build(ctx, without, train, "leaves=1 landmarks=30")) {
            assertTrue(predictor.hasProbabilities());
            assertArrayEquals(model.labels(), predictor.labels(), 0);
            double[][] ours = predictor.predictProbabilityRows(ctx, train);
            double[][] theirs = model.predictProbabilityRows(ctx, train);
            double largest = 0;
            for (int i = 0; i < ours.length; i++) {
                double sum = 0;
                for (int c = 0; c < ours[i].length; c++) {
                    sum += ours[i][c];
                    largest = Math.max(largest, Math.abs(ours[i][c] - theirs[i][c]));
                }
                assertEquals(1.0, sum, 1e-12);
            }
            assertTrue("largest gap " + largest, largest < 0.02);
            assertFalse(none.hasProbabilities());
            KmxException e = assertThrows(KmxException.class, () -> none.predictProbability(ctx, train));
            assertSame(Status.INVALID_ARGUMENT, e.status());
            assertTrue(e.getMessage(), e.getMessage().contains("carries no probability estimates"));
        }
    }
}
