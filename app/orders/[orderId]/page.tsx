import { OrderPayment } from "~/app/_components/order-payment";
import { labEnabled } from "~/server/env";

export default async function OrderPage({ params }: { params: Promise<{ orderId: string }> }) {
  const { orderId } = await params;
  return <OrderPayment orderId={orderId} labEnabled={labEnabled()} />;
}
