import { OrderPayment } from "~/app/_components/order-payment";

export default async function OrderPage({ params }: { params: Promise<{ orderId: string }> }) {
  const { orderId } = await params;
  return <OrderPayment orderId={orderId} />;
}
